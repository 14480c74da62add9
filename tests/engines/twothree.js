#!/usr/bin/env node
// twothree.js: a President engine written from the published rule sheets (ru/el), sharing no code
// with president/game/. It serves engine protocol v1 on stdin/stdout (replies only).
//
// What it plays: CardVerse 1.1.0 with one house rule that no spec option describes: "a 2 or a 3
// may always be played". This engine's reading: on a trick of a single card, a lone 2 or a lone 3
// may always follow, whatever the trick's rank and the current order (for instance a 3 on an ace,
// or, in revolution, a 2 on a king), but not on a card of its own rank: a 2 on a 2 or a 3 on a 3
// is still refused (so no equal play is ever accepted). The trick then stands at the rank played,
// and the next players follow it by the usual rules (or again with a lone 2 or 3 of another rank).
// Pairs, triples and quads of 2s or 3s follow the usual rules only. Everything else is 1.1.0,
// and it declares no house rule.
// Representation: cards are their texts; a hand is a Set of texts; a card's strength is looked up
// in a plain object; the trick keeps its cards and its rank.
'use strict';
const readline = require('readline');

const RANK_NAMES = ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2'];
const SUIT_NAMES = ['C', 'D', 'H', 'S'];
const STRENGTH = {};
RANK_NAMES.forEach((r, ri) => SUIT_NAMES.forEach((s, si) => { STRENGTH[r + s] = ri * 4 + si; }));
const rankOf = (c) => Math.floor(STRENGTH[c] / 4);
const lowFirst = (cs) => [...cs].sort((a, b) => STRENGTH[a] - STRENGTH[b]);
const TWO = 12;
const THREE = 0;
const CONFIG_KEYS = ['players', 'revolution', 'deals', 'equality', 'sequences', 'jokers', 'first_lead', 'leader_may_pass', 'scoring'];

class Nope extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}

function choose(list, k) {
  const out = [];
  const walk = (i, acc) => {
    if (acc.length === k) { out.push(acc); return; }
    for (let j = i; j < list.length; j++) walk(j + 1, [...acc, list[j]]);
  };
  walk(0, []);
  return out;
}

function checkCards(list) {
  if (!Array.isArray(list)) throw new Nope('bad_field', null, 'cards: a list');
  for (const c of list) {
    if (c === 'X1' || c === 'X2') throw new Nope('bad_card', 'setup.no-jokers-sequences', 'no jokers here');
    if (typeof c !== 'string' || !(c in STRENGTH)) throw new Nope('bad_card', null, `not a card: ${JSON.stringify(c)}`);
  }
  return list;
}

class Board {
  constructor(n, revolution, deals) {
    Object.assign(this, { n, revolution, deals });
    this.score = new Array(n).fill(0);
    this.dealIndex = 0;
    this.before = null; // the previous deal's ranking
  }

  open(hands) {
    this.hands = hands.map((h) => new Set(h));
    this.dealIndex += 1;
    this.reversed = false;
    this.trick = null; // {cards, rank, by}
    this.passed = new Set();
    this.finished = [];
    this.toGive = [];
    if (this.before === null) { this.phase = 'play'; this.next = 0; return; }
    const b = this.before;
    const n = this.n;
    const moves = [[b[n - 1], b[0], 2, 'exchange.scum']];
    if (n >= 4) moves.push([b[n - 2], b[1], 1, 'exchange.vice']);
    for (const [poor, rich, k, rule] of moves) {
      for (const c of lowFirst(this.hands[poor]).slice(-k)) { this.hands[poor].delete(c); this.hands[rich].add(c); }
      this.toGive.push({ rich, poor, k, rule });
    }
    this.phase = 'exchange';
    this.next = this.toGive[0].rich;
  }

  holding(s) { return this.hands[s].size > 0; }

  // may these cards (one rank, right count) follow the trick?
  follows(cards) {
    const r = rankOf(cards[0]);
    if (cards.length === 1 && this.trick.cards.length === 1 && (r === TWO || r === THREE) && r !== this.trick.rank) {
      return true; // the house rule
    }
    return this.reversed ? r < this.trick.rank : r > this.trick.rank;
  }

  legal() {
    if (this.phase === 'exchange') {
      const g = this.toGive[0];
      return choose(lowFirst(this.hands[g.rich]), g.k).map((cs) => ({ type: 'give', cards: cs }));
    }
    if (this.phase !== 'play') return [];
    const res = this.trick ? [{ type: 'pass' }] : [];
    const groups = new Map();
    for (const c of lowFirst(this.hands[this.next])) {
      const r = rankOf(c);
      if (!groups.has(r)) groups.set(r, []);
      groups.get(r).push(c);
    }
    for (const g of groups.values()) {
      const sizes = this.trick ? [this.trick.cards.length] : [1, 2, 3, 4];
      for (const k of sizes) for (const cs of choose(g, k)) if (!this.trick || this.follows(cs)) res.push({ type: 'play', cards: cs });
    }
    return res;
  }

  act(seat, action) {
    if (this.phase === 'deal_over' || this.phase === 'game_over') {
      throw new Nope('bad_phase', this.phase === 'game_over' ? 'game.end' : 'deal.end', 'the deal is over');
    }
    if (!Number.isInteger(seat)) throw new Nope('bad_field', null, 'player: a seat');
    if (seat < 0 || seat >= this.n) throw new Nope('bad_seat', 'turn.order', `no seat ${seat}`);
    if (!action || typeof action !== 'object' || !['play', 'pass', 'give'].includes(action.type)) {
      throw new Nope('bad_field', null, 'action: play, pass or give');
    }
    const cards = action.type === 'pass' ? [] : checkCards(action.cards);
    const hand = this.hands[seat];
    const owns = new Set(cards).size === cards.length && cards.every((c) => hand.has(c));
    if (this.phase === 'exchange') {
      const g = this.toGive[0];
      if (action.type !== 'give') throw new Nope('bad_phase', 'exchange.order', 'the exchange comes first');
      if (seat !== g.rich) throw new Nope('not_your_turn', 'exchange.order', `seat ${g.rich} gives back now`);
      if (!owns) throw new Nope('not_in_hand', 'play.own-cards', 'not in your hand');
      if (cards.length !== g.k) throw new Nope('wrong_count', g.rule, `give back ${g.k}`);
      for (const c of cards) { hand.delete(c); this.hands[g.poor].add(c); }
      this.toGive.shift();
      if (this.toGive.length) this.next = this.toGive[0].rich;
      else { this.phase = 'play'; this.next = this.before[this.n - 1]; }
      return;
    }
    if (action.type === 'give') throw new Nope('bad_phase', 'exchange.order', 'no exchange now');
    if (seat !== this.next) {
      const rule = !this.holding(seat) ? 'flow.out' : this.passed.has(seat) ? 'pass.final' : 'turn.order';
      throw new Nope('not_your_turn', rule, `seat ${this.next} is to act`);
    }
    if (action.type === 'pass') {
      if (!this.trick) throw new Nope('must_play', 'lead.must-play', 'lead something');
      this.passed.add(seat);
      this.turnAfter(seat);
      return;
    }
    if (!owns) throw new Nope('not_in_hand', 'play.own-cards', 'not in your hand');
    if (cards.length < 1 || cards.length > 4) throw new Nope('wrong_count', 'flow.lead', '1 to 4 cards');
    if (new Set(cards.map(rankOf)).size !== 1) throw new Nope('mixed_ranks', 'play.same-rank', 'one rank');
    if (this.trick) {
      if (cards.length !== this.trick.cards.length) throw new Nope('wrong_count', 'play.count-matches', 'as many cards as the trick');
      if (!this.follows(cards)) throw new Nope('not_higher', 'play.strictly-higher', 'too low');
    }
    for (const c of cards) hand.delete(c);
    this.trick = { cards: lowFirst(cards), rank: rankOf(cards[0]), by: seat };
    if (this.revolution && cards.length === 4) this.reversed = !this.reversed;
    if (!this.holding(seat)) {
      this.finished.push(seat);
      const left = [];
      for (let s = 0; s < this.n; s++) if (this.holding(s)) left.push(s);
      if (left.length === 1) { this.end(left[0]); return; }
    }
    this.turnAfter(seat);
  }

  turnAfter(seat) {
    const by = this.trick ? this.trick.by : -1;
    for (let i = 1; i <= this.n; i++) {
      const s = (seat + i) % this.n;
      if (s !== by && this.holding(s) && !this.passed.has(s)) { this.next = s; return; }
    }
    this.trick = null;
    this.passed = new Set();
    let s = by;
    while (!this.holding(s)) s = (s + 1) % this.n;
    this.next = s;
  }

  end(last) {
    this.finished.push(last);
    this.finished.forEach((s, i) => { this.score[s] += this.n - i; });
    this.before = [...this.finished];
    this.next = null;
    this.trick = null;
    this.passed = new Set();
    this.reversed = false;
    this.phase = this.dealIndex >= this.deals ? 'game_over' : 'deal_over';
  }

  state() {
    return {
      phase: this.phase, deal: this.dealIndex, to_act: this.next, order: this.reversed ? 'reversed' : 'normal',
      trick: this.trick && { cards: this.trick.cards, by: this.trick.by },
      passed: [...this.passed].sort((a, b) => a - b), hands: this.hands.map(lowFirst),
      finished: [...this.finished], scores: [...this.score],
    };
  }
}

function readHands(raw, n) {
  if (!Array.isArray(raw) || !raw.every(Array.isArray)) throw new Nope('bad_field', null, 'hands: a list of lists');
  if (raw.length !== n) throw new Nope('bad_hands', 'setup.partial-hands', `${n} hands`);
  if (raw.some((h) => h.includes('X1') || h.includes('X2'))) throw new Nope('bad_hands', 'setup.no-jokers-sequences', 'no jokers');
  const seen = new Set();
  for (const h of raw) {
    checkCards(h);
    if (h.length === 0) throw new Nope('bad_hands', 'setup.partial-hands', 'an empty hand');
    for (const c of h) { if (seen.has(c)) throw new Nope('bad_hands', 'setup.partial-hands', `${c} twice`); seen.add(c); }
  }
  return raw;
}

function readConfig(cfg) {
  if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg)) throw new Nope('bad_field', null, 'config: an object');
  for (const key of Object.keys(cfg)) if (!CONFIG_KEYS.includes(key)) throw new Nope('unknown_option', null, `unknown option '${key}'`);
  const n = cfg.players;
  if (!Number.isInteger(n) || n < 3 || n > 6) throw new Nope('bad_config', 'setup.players', '3 to 6 players');
  const deals = cfg.deals === undefined ? 1 : cfg.deals;
  if (!Number.isInteger(deals) || deals < 1) throw new Nope('bad_config', 'game.end', 'deals >= 1');
  const revolution = cfg.revolution === undefined ? true : cfg.revolution;
  if (typeof revolution !== 'boolean') throw new Nope('bad_config', 'revolution.option-off', 'revolution: a boolean');
  const only = [['equality', false, 'option.equality.on'], ['sequences', false, 'option.sequences.on'], ['jokers', 0, 'option.jokers.two'],
    ['first_lead', 'seat0', 'option.first-lead.holder'], ['leader_may_pass', false, 'option.leader-may-pass.on'],
    ['scoring', 'places', 'option.scoring.none']];
  for (const [key, value, rule] of only) {
    if (cfg[key] !== undefined && cfg[key] !== value) throw new Nope('bad_config', rule, `${key}=${JSON.stringify(cfg[key])} is not played`);
  }
  return { n, deals, revolution };
}

let board = null;

function handle(req) {
  if (req.cmd === 'hello') {
    return { ok: true, protocol: 1, name: 'twothree-js', version: '1.0', variant: 'cardverse-president',
      spec_version: '1.1.0', options: { players: [3, 4, 5, 6], revolution: [true, false], deals: true } };
  }
  if (req.cmd === 'quit') return { ok: true };
  if (req.cmd === 'new_game') {
    const c = readConfig(req.config === undefined ? {} : req.config);
    if (req.hands === undefined) throw new Nope('missing_field', 'setup.dealing', 'give the hands (no shuffle here)');
    const b = new Board(c.n, c.revolution, c.deals);
    b.open(readHands(req.hands, c.n));
    board = b;
    return { ok: true, state: board.state() };
  }
  if (!['deal', 'legal', 'act', 'state'].includes(req.cmd)) throw new Nope('unknown_cmd', null, `unknown command ${JSON.stringify(req.cmd)}`);
  if (!board) throw new Nope('no_game', null, 'new_game first');
  if (req.cmd === 'state') return { ok: true, state: board.state() };
  if (req.cmd === 'legal') return { ok: true, player: board.next, actions: board.legal() };
  if (req.cmd === 'deal') {
    if (board.phase !== 'deal_over') throw new Nope('bad_phase', board.phase === 'game_over' ? 'game.end' : 'deal.end', 'no next deal now');
    if (req.hands === undefined) throw new Nope('missing_field', 'setup.dealing', 'give the hands (no shuffle here)');
    board.open(readHands(req.hands, board.n));
    return { ok: true, state: board.state() };
  }
  if (req.player === undefined || req.action === undefined) throw new Nope('missing_field', null, 'act: player and action');
  board.act(req.player, req.action);
  return { ok: true, state: board.state() };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let reply;
  let stop = false;
  try {
    let req;
    try { req = JSON.parse(line); } catch (e) { throw new Nope('bad_json', null, 'not JSON'); }
    if (!req || typeof req !== 'object' || Array.isArray(req)) throw new Nope('bad_request', null, 'not an object');
    reply = handle(req);
    stop = req.cmd === 'quit';
  } catch (e) {
    reply = e instanceof Nope ? { ok: false, error: { code: e.code, rule: e.rule, message: e.message } }
      : { ok: false, error: { code: 'internal', rule: null, message: String(e) } };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
  if (stop) { rl.close(); process.stdout.end(() => process.exit(0)); }
});
