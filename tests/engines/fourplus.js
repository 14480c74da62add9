#!/usr/bin/env node
// fourplus.js: a President engine for 4 to 6 players, written from the published rule sheets
// (ru/el), sharing no code with president/game/. It serves engine protocol v1 on stdin/stdout
// (replies only).
//
// What it plays: CardVerse 1.1.0 exactly (seat 0 leads the first deal freely; 1 to 4 cards of
// one rank; as many cards strictly higher in the current order, or pass; a pass is final until
// the trick is reset; a quad reverses the order with revolution on; the exchange before later
// deals, with the Vice-Presidents' swap; n - p + 1 points), for 4, 5 or 6 players only:
// hello.options.players is [4, 5, 6] and a table of 3 is refused. It has no `position`
// capability (every scenario must be reached by play from new_game) and no seeded shuffle.
// Nothing differs from 1.1.0 at the table sizes it declares.
// `node tests/engines/fourplus.js 5` (any sizes from 4 to 6 as arguments) declares and seats only
// those sizes, e.g. a table of 5 only.
// Representation: a hand is 13 rank buckets, each a 4-bit mask of the suits held (C=1, D=2,
// H=4, S=8); a play is {rank, mask}.
'use strict';
const readline = require('readline');

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2'];
const SUITS = ['C', 'D', 'H', 'S'];
const SIZES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [4, 5, 6];
if (!SIZES.every((n) => Number.isInteger(n) && n >= 4 && n <= 6)) {
  process.stderr.write('usage: fourplus.js [SIZE ...] (table sizes from 4 to 6)\n');
  process.exit(2);
}
const KEYS = ['players', 'revolution', 'deals', 'equality', 'sequences', 'jokers', 'first_lead', 'leader_may_pass', 'scoring'];

class Refused extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}

const bits = (m) => { let k = 0; for (let i = 0; i < 4; i++) if (m & (1 << i)) k++; return k; };
const emptyHand = () => new Array(13).fill(0);
const count = (hand) => hand.reduce((a, m) => a + bits(m), 0);

function parseCard(text) {
  if (text === 'X1' || text === 'X2') throw new Refused('bad_card', 'setup.no-jokers-sequences', 'there are no jokers');
  if (typeof text !== 'string' || text.length < 2) throw new Refused('bad_card', null, `not a card: ${JSON.stringify(text)}`);
  const r = RANKS.indexOf(text.slice(0, -1));
  const s = SUITS.indexOf(text.slice(-1));
  if (r < 0 || s < 0) throw new Refused('bad_card', null, `not a card: ${text}`);
  return [r, 1 << s];
}

function cardsOf(r, mask) { const out = []; for (let s = 0; s < 4; s++) if (mask & (1 << s)) out.push(RANKS[r] + SUITS[s]); return out; }
function handCards(hand) { const out = []; hand.forEach((m, r) => out.push(...cardsOf(r, m))); return out; }

// a list of card texts -> a hand-shaped array of masks; duplicates are reported
function toMasks(list) {
  if (!Array.isArray(list)) throw new Refused('bad_field', null, 'cards must be a list');
  const h = emptyHand();
  let dup = false;
  for (const t of list) { const [r, b] = parseCard(t); if (h[r] & b) dup = true; h[r] |= b; }
  return { masks: h, dup, size: list.length };
}

class Game {
  constructor(n, revolution, deals) {
    this.n = n; this.revolution = revolution; this.deals = deals;
    this.scores = new Array(n).fill(0);
    this.dealNumber = 0;
    this.ranking = null;
  }

  begin(hands) {
    this.hands = hands;
    this.dealNumber++;
    this.rev = false;
    this.top = null; // {rank, mask, by}
    this.passed = new Set();
    this.done = [];
    this.pending = [];
    if (!this.ranking) { this.phase = 'play'; this.actor = 0; return; }
    const rk = this.ranking;
    const n = this.n;
    this.takeBest(rk[n - 1], rk[0], 2);
    this.pending.push({ who: rk[0], back: rk[n - 1], k: 2, rule: 'exchange.scum' });
    if (n >= 4) {
      this.takeBest(rk[n - 2], rk[1], 1);
      this.pending.push({ who: rk[1], back: rk[n - 2], k: 1, rule: 'exchange.vice' });
    }
    this.phase = 'exchange';
    this.actor = this.pending[0].who;
  }

  takeBest(from, to, k) {
    for (let r = 12; r >= 0 && k > 0; r--) {
      for (let s = 3; s >= 0 && k > 0; s--) {
        const b = 1 << s;
        if (this.hands[from][r] & b) { this.hands[from][r] &= ~b; this.hands[to][r] |= b; k--; }
      }
    }
  }

  alive(s) { return count(this.hands[s]) > 0; }
  above(a, b) { return this.rev ? a < b : a > b; }

  legal() {
    if (this.phase === 'exchange') {
      const p = this.pending[0];
      const all = handCards(this.hands[p.who]);
      const out = [];
      const pick = (from, acc) => {
        if (acc.length === p.k) { out.push({ type: 'give', cards: [...acc] }); return; }
        for (let i = from; i < all.length; i++) pick(i + 1, [...acc, all[i]]);
      };
      pick(0, []);
      return out;
    }
    if (this.phase !== 'play') return [];
    const out = this.top ? [{ type: 'pass' }] : [];
    const hand = this.hands[this.actor];
    for (let r = 0; r < 13; r++) {
      if (!hand[r]) continue;
      if (this.top && !this.above(r, this.top.rank)) continue;
      for (let sub = 1; sub < 16; sub++) {
        if ((sub & hand[r]) !== sub) continue;
        if (this.top && bits(sub) !== bits(this.top.mask)) continue;
        out.push({ type: 'play', cards: cardsOf(r, sub) });
      }
    }
    return out;
  }

  act(seat, action) {
    if (this.phase === 'deal_over' || this.phase === 'game_over') {
      throw new Refused('bad_phase', this.phase === 'game_over' ? 'game.end' : 'deal.end', 'the deal is over');
    }
    if (!Number.isInteger(seat)) throw new Refused('bad_field', null, 'player must be an integer');
    if (seat < 0 || seat >= this.n) throw new Refused('bad_seat', 'turn.order', `no seat ${seat}`);
    if (!action || typeof action !== 'object' || !['play', 'pass', 'give'].includes(action.type)) {
      throw new Refused('bad_field', null, 'action.type is play, pass or give');
    }
    const kind = action.type;
    const given = kind === 'pass' ? null : toMasks(action.cards);
    const mine = this.hands[seat];
    const holds = () => !given.dup && given.masks.every((m, r) => (m & mine[r]) === m);
    if (this.phase === 'exchange') {
      const p = this.pending[0];
      if (kind !== 'give') throw new Refused('bad_phase', 'exchange.order', 'the exchange comes first');
      if (seat !== p.who) throw new Refused('not_your_turn', 'exchange.order', `seat ${p.who} gives back now`);
      if (!holds()) throw new Refused('not_in_hand', 'play.own-cards', 'not your cards');
      if (given.size !== p.k) throw new Refused('wrong_count', p.rule, `give back ${p.k}`);
      given.masks.forEach((m, r) => { mine[r] &= ~m; this.hands[p.back][r] |= m; });
      this.pending.shift();
      if (this.pending.length) this.actor = this.pending[0].who;
      else { this.phase = 'play'; this.actor = this.ranking[this.n - 1]; }
      return;
    }
    if (kind === 'give') throw new Refused('bad_phase', 'exchange.order', 'no exchange now');
    if (seat !== this.actor) {
      const rule = !this.alive(seat) ? 'flow.out' : this.passed.has(seat) ? 'pass.final' : 'turn.order';
      throw new Refused('not_your_turn', rule, `seat ${this.actor} is to act`);
    }
    if (kind === 'pass') {
      if (!this.top) throw new Refused('must_play', 'lead.must-play', 'the leader must play');
      this.passed.add(seat);
      this.next(seat);
      return;
    }
    if (!holds()) throw new Refused('not_in_hand', 'play.own-cards', 'not your cards');
    const ranks = given.masks.map((m, r) => (m ? r : -1)).filter((r) => r >= 0);
    if (given.size === 0) throw new Refused('wrong_count', 'flow.lead', 'play at least one card');
    if (ranks.length !== 1) throw new Refused('mixed_ranks', 'play.same-rank', 'one rank per play');
    const r = ranks[0];
    const mask = given.masks[r];
    if (this.top) {
      if (bits(mask) !== bits(this.top.mask)) throw new Refused('wrong_count', 'play.count-matches', 'as many cards as the trick');
      if (!this.above(r, this.top.rank)) throw new Refused('not_higher', 'play.strictly-higher', 'not higher in the current order');
    }
    mine[r] &= ~mask;
    this.top = { rank: r, mask, by: seat };
    if (this.revolution && bits(mask) === 4) this.rev = !this.rev;
    if (!this.alive(seat)) {
      this.done.push(seat);
      const left = [];
      for (let s = 0; s < this.n; s++) if (this.alive(s)) left.push(s);
      if (left.length === 1) { this.over(left[0]); return; }
    }
    this.next(seat);
  }

  next(seat) {
    const by = this.top ? this.top.by : -1;
    for (let i = 1; i <= this.n; i++) {
      const s = (seat + i) % this.n;
      if (s !== by && this.alive(s) && !this.passed.has(s)) { this.actor = s; return; }
    }
    this.top = null;
    this.passed = new Set();
    let s = by;
    while (!this.alive(s)) s = (s + 1) % this.n;
    this.actor = s;
  }

  over(last) {
    this.done.push(last);
    this.done.forEach((s, i) => { this.scores[s] += this.n - i; });
    this.ranking = [...this.done];
    this.actor = null;
    this.top = null;
    this.passed = new Set();
    this.rev = false;
    this.phase = this.dealNumber >= this.deals ? 'game_over' : 'deal_over';
  }

  state() {
    return {
      phase: this.phase, deal: this.dealNumber, to_act: this.actor, order: this.rev ? 'reversed' : 'normal',
      trick: this.top && { cards: cardsOf(this.top.rank, this.top.mask), by: this.top.by },
      passed: [...this.passed].sort((a, b) => a - b), hands: this.hands.map(handCards),
      finished: [...this.done], scores: [...this.scores],
    };
  }
}

function readHands(raw, n) {
  if (!Array.isArray(raw) || !raw.every(Array.isArray)) throw new Refused('bad_field', null, 'hands: a list of lists');
  if (raw.length !== n) throw new Refused('bad_hands', 'setup.partial-hands', `${n} hands`);
  if (raw.some((h) => h.includes('X1') || h.includes('X2'))) throw new Refused('bad_hands', 'setup.no-jokers-sequences', 'no jokers');
  const seen = emptyHand();
  return raw.map((h) => {
    const { masks, dup, size } = toMasks(h);
    if (size === 0) throw new Refused('bad_hands', 'setup.partial-hands', 'empty hand');
    if (dup || masks.some((m, r) => m & seen[r])) throw new Refused('bad_hands', 'setup.partial-hands', 'a card dealt twice');
    masks.forEach((m, r) => { seen[r] |= m; });
    return masks;
  });
}

function config(cfg) {
  if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg)) throw new Refused('bad_field', null, 'config: an object');
  for (const k of Object.keys(cfg)) if (!KEYS.includes(k)) throw new Refused('unknown_option', null, `unknown option '${k}'`);
  const n = cfg.players;
  if (!Number.isInteger(n) || !SIZES.includes(n)) throw new Refused('bad_config', 'setup.players', `this engine seats ${SIZES.join(', ')} players`);
  const deals = cfg.deals === undefined ? 1 : cfg.deals;
  if (!Number.isInteger(deals) || deals < 1) throw new Refused('bad_config', 'game.end', 'deals: an integer >= 1');
  const revolution = cfg.revolution === undefined ? true : cfg.revolution;
  if (typeof revolution !== 'boolean') throw new Refused('bad_config', 'revolution.option-off', 'revolution: a boolean');
  const defaults = [['equality', false, 'option.equality.on'], ['sequences', false, 'option.sequences.on'],
    ['jokers', 0, 'option.jokers.two'], ['first_lead', 'seat0', 'option.first-lead.holder'],
    ['leader_may_pass', false, 'option.leader-may-pass.on'], ['scoring', 'places', 'option.scoring.none']];
  for (const [k, v, rule] of defaults) {
    if (cfg[k] !== undefined && cfg[k] !== v) throw new Refused('bad_config', rule, `${k}=${JSON.stringify(cfg[k])} is not played`);
  }
  return { n, deals, revolution };
}

let game = null;

function handle(req) {
  const cmd = req.cmd;
  if (cmd === 'hello') {
    return { ok: true, protocol: 1, name: 'fourplus-js', version: '1.0', variant: 'cardverse-president',
      spec_version: '1.1.0', options: { players: [...SIZES], revolution: [true, false], deals: true } };
  }
  if (cmd === 'quit') return { ok: true };
  if (cmd === 'new_game') {
    const c = config(req.config === undefined ? {} : req.config);
    if (req.hands === undefined) throw new Refused('missing_field', 'setup.dealing', 'no shuffle here: give the hands');
    const g = new Game(c.n, c.revolution, c.deals);
    g.begin(readHands(req.hands, c.n));
    game = g;
    return { ok: true, state: game.state() };
  }
  if (!['deal', 'legal', 'act', 'state'].includes(cmd)) throw new Refused('unknown_cmd', null, `unknown command ${JSON.stringify(cmd)}`);
  if (!game) throw new Refused('no_game', null, 'new_game first');
  if (cmd === 'state') return { ok: true, state: game.state() };
  if (cmd === 'legal') return { ok: true, player: game.actor, actions: game.legal() };
  if (cmd === 'deal') {
    if (game.phase !== 'deal_over') throw new Refused('bad_phase', game.phase === 'game_over' ? 'game.end' : 'deal.end', 'no next deal now');
    if (req.hands === undefined) throw new Refused('missing_field', 'setup.dealing', 'no shuffle here: give the hands');
    game.begin(readHands(req.hands, game.n));
    return { ok: true, state: game.state() };
  }
  if (req.player === undefined || req.action === undefined) throw new Refused('missing_field', null, 'player and action');
  game.act(req.player, req.action);
  return { ok: true, state: game.state() };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let reply;
  let quit = false;
  try {
    let req;
    try { req = JSON.parse(line); } catch (e) { throw new Refused('bad_json', null, 'not JSON'); }
    if (!req || typeof req !== 'object' || Array.isArray(req)) throw new Refused('bad_request', null, 'not an object');
    reply = handle(req);
    quit = cmd(req) === 'quit';
  } catch (e) {
    if (e instanceof Refused) reply = { ok: false, error: { code: e.code, rule: e.rule, message: e.message } };
    else reply = { ok: false, error: { code: 'internal', rule: null, message: String(e) } };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
  if (quit) { rl.close(); process.stdout.end(() => process.exit(0)); }
});
function cmd(req) { return req.cmd; }
