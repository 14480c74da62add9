#!/usr/bin/env node
// ladder.js: a President engine written from the published rule sheets (ru/el) and the spec's
// option clauses, sharing no code with president/game/. It serves engine protocol v1 on
// stdin/stdout (replies only; nothing else is written to stdout).
//
// What it plays: CardVerse 1.1.0 with two house rules that it does NOT declare in hello.options
// (it says it plays the defaults, and accepts the default values in new_game.config):
//   - the ladder (spec option sequences = true, clause option.sequences.on): a run of 3 or more
//     cards of one suit with consecutive ranks in the normal order (3 .. 2, no wrap from 2 to 3) is
//     a combination; only a run of the same length whose top is higher in the current order
//     follows it (in revolution a run's top is its lowest card); a set never answers a run nor a
//     run a set; a run never reverses the order, whatever its length;
//   - the leader may pass (spec option leader_may_pass = true, clause option.leader-may-pass.on):
//     the leader of an empty trick may pass; that pass is final for the trick and the next active
//     player who has not passed leads; the last active player who has not passed must play.
// Everything else is 1.1.0: seat 0 leads the first deal freely, 1 to 4 cards of one rank, as many
// cards strictly higher in the current order, a quad reverses the order, passes are final, the
// exchange before later deals, n - p + 1 points.
// Representation: a card is an integer 0..51 (rank * 4 + suit); hands are sorted integer arrays.
'use strict';
const readline = require('readline');

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2'];
const SUITS = ['C', 'D', 'H', 'S'];
const NAMES = [];
for (const r of RANKS) for (const s of SUITS) NAMES.push(r + s);
const ID = new Map(NAMES.map((n, i) => [n, i]));
const OPTION_KEYS = ['revolution', 'deals', 'equality', 'sequences', 'jokers', 'first_lead', 'leader_may_pass', 'scoring'];

class Refusal extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}

const rank = (c) => c >> 2;
const suit = (c) => c & 3;
const names = (cs) => [...cs].sort((a, b) => a - b).map((c) => NAMES[c]);

function subsets(list, k) {
  if (k === 0) return [[]];
  const out = [];
  for (let i = 0; i + k <= list.length; i++) {
    for (const rest of subsets(list.slice(i + 1), k - 1)) out.push([list[i], ...rest]);
  }
  return out;
}

// what a group of cards is: {kind:'set', rank, n} | {kind:'run', top(normal), low, n} | a Refusal
function shapeOf(cards) {
  const sorted = [...cards].sort((a, b) => a - b);
  if (new Set(sorted.map(rank)).size === 1) {
    if (sorted.length > 4) return new Refusal('wrong_count', 'flow.lead', 'at most 4 cards of one rank');
    return { kind: 'set', rank: rank(sorted[0]), n: sorted.length };
  }
  if (sorted.length < 3) return new Refusal('mixed_ranks', 'play.same-rank', 'the cards of a play must have one rank');
  const s = suit(sorted[0]);
  for (let i = 0; i < sorted.length; i++) {
    if (suit(sorted[i]) !== s || rank(sorted[i]) !== rank(sorted[0]) + i) {
      return new Refusal('mixed_ranks', 'option.sequences.on', 'neither one rank nor a run of one suit');
    }
  }
  return { kind: 'run', low: rank(sorted[0]), top: rank(sorted[sorted.length - 1]), n: sorted.length };
}

class Table {
  constructor(n, revolution, deals) {
    this.n = n;
    this.revolution = revolution;
    this.deals = deals;
    this.points = new Array(n).fill(0);
    this.dealNo = 0;
    this.lastRanking = null;
  }

  start(hands) {
    this.hands = hands.map((h) => [...h].sort((a, b) => a - b));
    this.dealNo += 1;
    this.reversed = false;
    this.trick = null; // {cards, by, shape}
    this.passed = [];
    this.out = [];
    this.owed = [];
    if (this.lastRanking === null) { this.phase = 'play'; this.turn = 0; return; }
    const r = this.lastRanking;
    this.hand_over(r[this.n - 1], r[0], 2);
    this.owed.push({ giver: r[0], to: r[this.n - 1], k: 2, rule: 'exchange.scum' });
    if (this.n >= 4) {
      this.hand_over(r[this.n - 2], r[1], 1);
      this.owed.push({ giver: r[1], to: r[this.n - 2], k: 1, rule: 'exchange.vice' });
    }
    this.phase = 'exchange';
    this.turn = this.owed[0].giver;
  }

  hand_over(from, to, k) { // the best k cards (highest rank, then suit): the highest integers
    const best = this.hands[from].slice(-k);
    this.move(from, to, best);
  }

  move(from, to, cards) {
    this.hands[from] = this.hands[from].filter((c) => !cards.includes(c));
    this.hands[to] = [...this.hands[to], ...cards].sort((a, b) => a - b);
  }

  active(s) { return this.hands[s].length > 0; }

  higher(a, b) { return this.reversed ? a < b : a > b; }

  // the refusal a follow would get, or null
  followProblem(shape) {
    const t = this.trick.shape;
    if (shape.kind !== t.kind) return new Refusal('wrong_kind', 'option.sequences.on', 'a set never answers a run nor a run a set');
    if (shape.n !== t.n) return new Refusal('wrong_count', 'play.count-matches', `play ${t.n} cards`);
    if (shape.kind === 'set') {
      if (!this.higher(shape.rank, t.rank)) {
        return new Refusal('not_higher', t.n === 4 ? 'revolution.no-clear' : 'play.strictly-higher', 'not higher in the current order');
      }
    } else {
      const mine = this.reversed ? shape.low : shape.top;
      const theirs = this.reversed ? t.low : t.top;
      if (!this.higher(mine, theirs)) return new Refusal('not_higher', 'option.sequences.on', 'the run is not higher');
    }
    return null;
  }

  mayPass() {
    if (this.trick) return true;
    const open = [];
    for (let s = 0; s < this.n; s++) if (this.active(s) && !this.passed.includes(s)) open.push(s);
    return open.length > 1; // the last one who has not passed must play
  }

  legal() {
    if (this.phase === 'exchange') {
      const o = this.owed[0];
      return subsets(this.hands[o.giver], o.k).map((cs) => ({ type: 'give', cards: names(cs) }));
    }
    if (this.phase !== 'play') return [];
    const hand = this.hands[this.turn];
    const found = [];
    const byRank = new Map();
    for (const c of hand) { if (!byRank.has(rank(c))) byRank.set(rank(c), []); byRank.get(rank(c)).push(c); }
    for (const group of byRank.values()) for (let k = 1; k <= group.length; k++) found.push(...subsets(group, k));
    for (let s = 0; s < 4; s++) {
      const have = new Set(hand.filter((c) => suit(c) === s).map(rank));
      for (let lo = 0; lo < 13; lo++) {
        for (let hi = lo; hi < 13 && have.has(hi); hi++) {
          if (hi - lo >= 2) { const run = []; for (let r = lo; r <= hi; r++) run.push(r * 4 + s); found.push(run); }
        }
      }
    }
    const acts = this.mayPass() ? [{ type: 'pass' }] : [];
    for (const cs of found) {
      if (!this.trick || this.followProblem(shapeOf(cs)) === null) acts.push({ type: 'play', cards: names(cs) });
    }
    return acts;
  }

  act(seat, action) {
    if (this.phase === 'deal_over' || this.phase === 'game_over') {
      throw new Refusal('bad_phase', this.phase === 'game_over' ? 'game.end' : 'deal.end', 'the deal is over');
    }
    if (!Number.isInteger(seat)) throw new Refusal('bad_field', null, 'player must be a seat number');
    if (seat < 0 || seat >= this.n) throw new Refusal('bad_seat', 'turn.order', `no seat ${seat}`);
    if (action === null || typeof action !== 'object') throw new Refusal('bad_field', null, 'action must be an object');
    const type = action.type;
    if (!['play', 'pass', 'give'].includes(type)) throw new Refusal('bad_field', null, 'action type is play, pass or give');
    const cards = type === 'pass' ? [] : toCards(action.cards);
    if (this.phase === 'exchange') {
      const o = this.owed[0];
      if (type !== 'give') throw new Refusal('bad_phase', 'exchange.order', 'the exchange comes first');
      if (seat !== o.giver) throw new Refusal('not_your_turn', 'exchange.order', `seat ${o.giver} gives back first`);
      this.own(seat, cards);
      if (cards.length !== o.k) throw new Refusal('wrong_count', o.rule, `give back ${o.k} card(s)`);
      this.move(seat, o.to, cards);
      this.owed.shift();
      if (this.owed.length) this.turn = this.owed[0].giver;
      else { this.phase = 'play'; this.turn = this.lastRanking[this.n - 1]; }
      return;
    }
    if (type === 'give') throw new Refusal('bad_phase', 'exchange.order', 'there is no exchange now');
    if (seat !== this.turn) {
      const rule = !this.active(seat) ? 'flow.out' : this.passed.includes(seat) ? 'pass.final' : 'turn.order';
      throw new Refusal('not_your_turn', rule, `seat ${this.turn} is to act`);
    }
    if (type === 'pass') {
      if (!this.mayPass()) throw new Refusal('must_play', 'option.leader-may-pass.on', 'the last player who has not passed must lead');
      this.passed.push(seat);
      this.moveOn(seat);
      return;
    }
    this.own(seat, cards);
    if (cards.length === 0) throw new Refusal('wrong_count', 'flow.lead', 'play at least one card');
    const shape = shapeOf(cards);
    if (shape instanceof Refusal) throw shape;
    if (this.trick) { const p = this.followProblem(shape); if (p) throw p; }
    this.hands[seat] = this.hands[seat].filter((c) => !cards.includes(c));
    this.trick = { cards, by: seat, shape };
    if (this.revolution && shape.kind === 'set' && shape.n === 4) this.reversed = !this.reversed;
    if (!this.active(seat)) {
      this.out.push(seat);
      const left = [];
      for (let s = 0; s < this.n; s++) if (this.active(s)) left.push(s);
      if (left.length === 1) { this.close(left[0]); return; }
    }
    this.moveOn(seat);
  }

  own(seat, cards) {
    if (new Set(cards).size !== cards.length || !cards.every((c) => this.hands[seat].includes(c))) {
      throw new Refusal('not_in_hand', 'play.own-cards', 'cards you do not hold');
    }
  }

  // the next seat to act after `seat` acted; ends the trick when everyone else has passed
  moveOn(seat) {
    const by = this.trick ? this.trick.by : null;
    for (let i = 1; i <= this.n; i++) {
      const s = (seat + i) % this.n;
      if (s !== by && this.active(s) && !this.passed.includes(s)) { this.turn = s; return; }
    }
    // every active player other than the last to play has passed: the trick is over
    this.trick = null;
    this.passed = [];
    let s = by;
    while (!this.active(s)) s = (s + 1) % this.n;
    this.turn = s;
  }

  close(last) {
    this.out.push(last);
    this.out.forEach((s, place) => { this.points[s] += this.n - place; });
    this.lastRanking = [...this.out];
    this.turn = null;
    this.trick = null;
    this.passed = [];
    this.reversed = false;
    this.phase = this.dealNo >= this.deals ? 'game_over' : 'deal_over';
  }

  view() {
    return {
      phase: this.phase,
      deal: this.dealNo,
      to_act: this.turn,
      order: this.reversed ? 'reversed' : 'normal',
      trick: this.trick && { cards: names(this.trick.cards), by: this.trick.by },
      passed: [...this.passed].sort((a, b) => a - b),
      hands: this.hands.map(names),
      finished: this.phase === 'exchange' ? [] : [...this.out],
      scores: [...this.points],
    };
  }
}

function toCards(list) {
  if (!Array.isArray(list)) throw new Refusal('bad_field', null, 'cards must be a list');
  return list.map((c) => {
    if (c === 'X1' || c === 'X2') throw new Refusal('bad_card', 'setup.no-jokers-sequences', 'there are no jokers');
    if (typeof c !== 'string' || !ID.has(c)) throw new Refusal('bad_card', null, `not a card: ${JSON.stringify(c)}`);
    return ID.get(c);
  });
}

function readHands(hands, n) {
  if (!Array.isArray(hands)) throw new Refusal('bad_field', null, 'hands must be a list of lists');
  if (hands.length !== n) throw new Refusal('bad_hands', 'setup.partial-hands', `${n} hands expected`);
  const seen = new Set();
  return hands.map((h) => {
    if (!Array.isArray(h)) throw new Refusal('bad_field', null, 'a hand is a list of cards');
    if (h.some((c) => c === 'X1' || c === 'X2')) throw new Refusal('bad_hands', 'setup.no-jokers-sequences', 'there are no jokers');
    const cs = toCards(h);
    if (cs.length === 0) throw new Refusal('bad_hands', 'setup.partial-hands', 'a hand may not be empty');
    for (const c of cs) {
      if (seen.has(c)) throw new Refusal('bad_hands', 'setup.partial-hands', `${NAMES[c]} dealt twice`);
      seen.add(c);
    }
    return cs;
  });
}

// the options it declares: defaults only (the ladder and the leader's pass are not declared)
function readConfig(cfg) {
  if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) throw new Refusal('bad_field', null, 'config must be an object');
  for (const k of Object.keys(cfg)) {
    if (k !== 'players' && !OPTION_KEYS.includes(k)) throw new Refusal('unknown_option', null, `unknown option '${k}'`);
  }
  const n = cfg.players;
  if (!Number.isInteger(n) || n < 3 || n > 6) throw new Refusal('bad_config', 'setup.players', '3 to 6 players');
  const deals = cfg.deals === undefined ? 1 : cfg.deals;
  if (!Number.isInteger(deals) || deals < 1) throw new Refusal('bad_config', 'game.end', 'deals is a whole number >= 1');
  const revolution = cfg.revolution === undefined ? true : cfg.revolution;
  if (typeof revolution !== 'boolean') throw new Refusal('bad_config', 'revolution.option-off', 'revolution is true or false');
  const only = { equality: [false, 'option.equality.on'], sequences: [false, 'option.sequences.on'],
    jokers: [0, 'option.jokers.two'], first_lead: ['seat0', 'option.first-lead.holder'],
    leader_may_pass: [false, 'option.leader-may-pass.on'], scoring: ['places', 'option.scoring.none'] };
  for (const [k, [v, rule]] of Object.entries(only)) {
    if (cfg[k] !== undefined && cfg[k] !== v) throw new Refusal('bad_config', rule, `${k}=${JSON.stringify(cfg[k])} is not played here`);
  }
  return { n, deals, revolution };
}

let table = null;

function handle(req) {
  switch (req.cmd) {
    case 'hello':
      return { ok: true, protocol: 1, name: 'ladder-js', version: '1.0', variant: 'cardverse-president',
        spec_version: '1.1.0', options: { players: [3, 4, 5, 6], revolution: [true, false], deals: true } };
    case 'quit':
      return { ok: true };
    case 'new_game': {
      const { n, deals, revolution } = readConfig(req.config === undefined ? {} : req.config);
      if (req.hands === undefined) throw new Refusal('missing_field', 'setup.dealing', 'this engine deals no seed: give the hands');
      const hands = readHands(req.hands, n);
      const t = new Table(n, revolution, deals);
      t.start(hands);
      table = t;
      return { ok: true, state: table.view() };
    }
    case 'deal':
    case 'legal':
    case 'act':
    case 'state':
      break;
    default:
      throw new Refusal('unknown_cmd', null, `unknown command ${JSON.stringify(req.cmd)}`);
  }
  if (!table) throw new Refusal('no_game', null, 'no game: send new_game first');
  if (req.cmd === 'state') return { ok: true, state: table.view() };
  if (req.cmd === 'legal') return { ok: true, player: table.turn, actions: table.legal() };
  if (req.cmd === 'deal') {
    if (table.phase !== 'deal_over') throw new Refusal('bad_phase', table.phase === 'game_over' ? 'game.end' : 'deal.end', 'no next deal now');
    if (req.hands === undefined) throw new Refusal('missing_field', 'setup.dealing', 'this engine deals no seed: give the hands');
    table.start(readHands(req.hands, table.n));
    return { ok: true, state: table.view() };
  }
  if (req.player === undefined || req.action === undefined) throw new Refusal('missing_field', null, 'act needs player and action');
  table.act(req.player, req.action);
  return { ok: true, state: table.view() };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let reply;
  let quit = false;
  try {
    const req = JSON.parse(line);
    if (req === null || typeof req !== 'object' || Array.isArray(req)) throw new Refusal('bad_request', null, 'a request is a JSON object');
    reply = handle(req);
    quit = req.cmd === 'quit';
  } catch (e) {
    if (e instanceof Refusal) reply = { ok: false, error: { code: e.code, rule: e.rule, message: e.message } };
    else if (e instanceof SyntaxError) reply = { ok: false, error: { code: 'bad_json', rule: null, message: 'not JSON' } };
    else reply = { ok: false, error: { code: 'internal', rule: null, message: String(e) } };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
  if (quit) { rl.close(); process.stdout.end(() => process.exit(0)); }
});
