#!/usr/bin/env node
// A Daifugo-flavoured President engine written from scratch (no code shared with
// president/game/engine.py), serving engine protocol v1 on stdin/stdout.
//
// House rules (deliberately different from the CardVerse reference):
//   - the holder of the 3 of clubs leads the first deal          (first_lead = holder:3C)
//   - a play of the same rank may follow (equality)               (equality = true)
//   - a lone 3 of spades beats any single card
//   - a player who goes out clears the trick at once; the next seat still in leads
// It can start a game from a position (hello.options.position).
// Representation choices (the rules are silent on them):
//   - once a deal is over the last trick stays on the table and the order reads normal
//   - cards listed highest first, "passed" in the order the seats passed, keys in another order
'use strict';
const readline = require('readline');

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2'];
const SUITS = ['C', 'D', 'H', 'S'];
const rankOf = (c) => RANKS.indexOf(c.slice(0, -1));
const suitOf = (c) => SUITS.indexOf(c.slice(-1));
const strength = (c) => rankOf(c) * 4 + suitOf(c);
const isCard = (c) => typeof c === 'string' && c.length >= 2 && rankOf(c) >= 0 && suitOf(c) >= 0;
const highFirst = (cards) => [...cards].sort((a, b) => strength(b) - strength(a));

class Refusal extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}

function combos(list, k) {
  if (k === 0) return [[]];
  const out = [];
  for (let i = 0; i <= list.length - k; i++) {
    for (const rest of combos(list.slice(i + 1), k - 1)) out.push([list[i], ...rest]);
  }
  return out;
}

class Table {
  constructor(players, revolution, deals, hands) {
    this.players = players;
    this.revolution = revolution;
    this.deals = deals;
    this.scores = new Array(players).fill(0);
    this.deal = 0;
    this.ranking = null;
    this.startDeal(hands);
  }

  startDeal(hands) {
    this.hands = hands.map((h) => [...h]);
    this.deal += 1;
    this.reversed = false;
    this.trick = null;
    this.passes = [];
    this.out = [];
    this.giveBacks = [];
    if (!this.ranking) {
      const holder = this.hands.findIndex((h) => h.includes('3C'));
      this.phase = 'play';
      this.turn = holder >= 0 ? holder : 0;
      return;
    }
    const last = this.ranking[this.players - 1];
    const pres = this.ranking[0];
    this.moveBest(last, pres, 2);
    this.giveBacks.push({ from: pres, to: last, count: 2, rule: 'exchange.scum' });
    if (this.players >= 4) {
      const vlast = this.ranking[this.players - 2];
      const vice = this.ranking[1];
      this.moveBest(vlast, vice, 1);
      this.giveBacks.push({ from: vice, to: vlast, count: 1, rule: 'exchange.vice' });
    }
    this.phase = 'exchange';
    this.turn = this.giveBacks[0].from;
  }

  moveBest(from, to, k) {
    const best = highFirst(this.hands[from]).slice(0, k);
    this.hands[from] = this.hands[from].filter((c) => !best.includes(c));
    this.hands[to].push(...best);
  }

  stillIn(seat) { return this.hands[seat].length > 0; }

  beats(cards) {
    const top = this.trick.cards;
    if (cards.length !== top.length) return false;
    if (cards.length === 1 && cards[0] === '3S' && top[0] !== '3S') return true;
    const r = rankOf(cards[0]);
    const t = rankOf(top[0]);
    return this.reversed ? r <= t : r >= t;
  }

  legal() {
    if (this.phase === 'exchange') {
      const g = this.giveBacks[0];
      return combos(this.hands[g.from], g.count).map((cs) => ({ type: 'give', cards: cs }));
    }
    if (this.phase !== 'play') return [];
    const hand = this.hands[this.turn];
    const byRank = new Map();
    for (const c of hand) {
      const r = rankOf(c);
      if (!byRank.has(r)) byRank.set(r, []);
      byRank.get(r).push(c);
    }
    const out = [];
    if (this.trick) out.push({ type: 'pass' });
    for (const group of byRank.values()) {
      const sizes = this.trick ? [this.trick.cards.length] : [1, 2, 3, 4];
      for (const k of sizes) {
        for (const cs of combos(group, k)) {
          if (!this.trick || this.beats(cs)) out.push({ type: 'play', cards: cs });
        }
      }
    }
    if (this.trick && this.trick.cards.length === 1 && hand.includes('3S')
        && rankOf(this.trick.cards[0]) !== 0 && !out.some((a) => a.cards && a.cards[0] === '3S')) {
      out.push({ type: 'play', cards: ['3S'] });
    }
    return out;
  }

  act(seat, action) {
    if (this.phase === 'deal_over' || this.phase === 'game_over') {
      throw new Refusal('bad_phase', 'deal.end', 'this deal is finished');
    }
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.players) {
      throw new Refusal('bad_seat', 'turn.order', 'no such seat');
    }
    const type = action && action.type;
    if (this.phase === 'exchange') {
      const g = this.giveBacks[0];
      if (type !== 'give') throw new Refusal('bad_phase', 'exchange.order', 'give cards back first');
      if (seat !== g.from) throw new Refusal('not_your_turn', 'exchange.order', `seat ${g.from} gives first`);
      this.checkOwn(seat, action.cards);
      if (action.cards.length !== g.count) throw new Refusal('wrong_count', g.rule, `give ${g.count}`);
      this.hands[seat] = this.hands[seat].filter((c) => !action.cards.includes(c));
      this.hands[g.to].push(...action.cards);
      this.giveBacks.shift();
      if (this.giveBacks.length) this.turn = this.giveBacks[0].from;
      else { this.phase = 'play'; this.turn = this.ranking[this.players - 1]; }
      return;
    }
    if (type === 'give') throw new Refusal('bad_phase', 'exchange.order', 'nothing to give');
    if (seat !== this.turn) {
      const rule = !this.stillIn(seat) ? 'flow.out' : this.passes.includes(seat) ? 'pass.final' : 'turn.order';
      throw new Refusal('not_your_turn', rule, `seat ${this.turn} is to play`);
    }
    if (type === 'pass') {
      if (!this.trick) throw new Refusal('must_play', 'lead.must-play', 'lead something');
      this.passes.push(seat);
      this.advance(seat);
      return;
    }
    if (type !== 'play') throw new Refusal('bad_field', null, 'unknown action type');
    const cards = action.cards;
    this.checkOwn(seat, cards);
    if (cards.length === 0 || cards.length > 4) throw new Refusal('wrong_count', 'flow.lead', '1 to 4 cards');
    if (new Set(cards.map(rankOf)).size !== 1) throw new Refusal('mixed_ranks', 'play.same-rank', 'one rank');
    if (this.trick) {
      if (cards.length !== this.trick.cards.length) throw new Refusal('wrong_count', 'play.count-matches', 'same count');
      if (!this.beats(cards)) throw new Refusal('not_higher', 'play.strictly-higher', 'too low');
    }
    this.hands[seat] = this.hands[seat].filter((c) => !cards.includes(c));
    this.trick = { cards: [...cards], by: seat };
    if (this.revolution && cards.length === 4) this.reversed = !this.reversed;
    if (!this.stillIn(seat)) {
      this.out.push(seat);
      const left = this.hands.map((h, s) => s).filter((s) => this.stillIn(s));
      if (left.length === 1) { this.finish(left[0]); return; }
      // going out clears the trick: the next seat still in leads
      this.passes = [];
      this.trick = null;
      this.turn = this.nextIn(seat);
      return;
    }
    this.advance(seat);
  }

  checkOwn(seat, cards) {
    if (!Array.isArray(cards) || !cards.every(isCard)) throw new Refusal('bad_card', null, 'not cards');
    if (new Set(cards).size !== cards.length || !cards.every((c) => this.hands[seat].includes(c))) {
      throw new Refusal('not_in_hand', 'play.own-cards', 'you do not hold that');
    }
  }

  nextIn(seat) {
    let s = seat;
    do { s = (s + 1) % this.players; } while (!this.stillIn(s));
    return s;
  }

  advance(seat) {
    const by = this.trick.by;
    let s = seat;
    for (let i = 0; i < this.players; i++) {
      s = (s + 1) % this.players;
      if (s !== by && this.stillIn(s) && !this.passes.includes(s)) { this.turn = s; return; }
    }
    this.trick = null;
    this.passes = [];
    this.turn = this.stillIn(by) ? by : this.nextIn(by);
  }

  finish(last) {
    this.out.push(last);
    this.out.forEach((seat, i) => { this.scores[seat] += this.players - i; });
    this.ranking = [...this.out];
    this.turn = null;
    this.passes = [];
    this.reversed = false; // the revolution ends with the deal
    this.phase = this.deal >= this.deals ? 'game_over' : 'deal_over';
    // the last trick stays on the table until the next deal
  }

  wire() {
    return {
      scores: this.scores,
      hands: this.hands.map(highFirst),
      finished: this.out,
      trick: this.trick && { by: this.trick.by, cards: highFirst(this.trick.cards) },
      passed: this.passes,
      order: this.reversed ? 'reversed' : 'normal',
      to_act: this.turn,
      deal: this.deal,
      phase: this.phase,
    };
  }
}

function checkHands(hands, players) {
  if (!Array.isArray(hands) || hands.length !== players) throw new Refusal('bad_hands', 'setup.partial-hands', 'one hand per seat');
  const seen = new Set();
  for (const h of hands) {
    if (!Array.isArray(h) || !h.every(isCard)) throw new Refusal('bad_card', null, 'not cards');
    if (h.length === 0) throw new Refusal('bad_hands', 'setup.partial-hands', 'empty hand');
    for (const c of h) {
      if (seen.has(c)) throw new Refusal('bad_hands', 'setup.partial-hands', `${c} dealt twice`);
      seen.add(c);
    }
  }
  return hands;
}

let table = null;

function handle(req) {
  switch (req.cmd) {
    case 'hello':
      return { ok: true, protocol: 1, name: 'daifugo-js', version: '0.3', variant: 'cardverse-president',
        spec_version: '1.1.0', options: { players: [3, 4, 5, 6], revolution: [true, false], deals: true, seed: false, position: true } };
    case 'new_game': {
      const cfg = req.config || {};
      const n = cfg.players;
      if (!Number.isInteger(n) || n < 3 || n > 6) throw new Refusal('bad_config', 'setup.players', '3 to 6 players');
      const deals = cfg.deals === undefined ? 1 : cfg.deals;
      if (!Number.isInteger(deals) || deals < 1) throw new Refusal('bad_config', 'game.end', 'deals >= 1');
      if (!req.hands) throw new Refusal('no_seed', 'setup.dealing', 'this engine cannot shuffle');
      table = new Table(n, cfg.revolution !== false, deals, checkHands(req.hands, n));
      const p = req.position;
      if (p) { // start mid-deal (hello.options.position)
        table.turn = p.to_act;
        table.trick = p.trick ? { cards: [...p.trick.cards], by: p.trick.by } : null;
        table.passes = [...(p.passed || [])];
        table.out = [...(p.finished || [])];
        table.reversed = p.order === 'reversed';
        if (p.scores) table.scores = [...p.scores];
      }
      return { ok: true, state: table.wire() };
    }
    case 'quit':
      return { ok: true };
  }
  if (!['deal', 'legal', 'act', 'state'].includes(req.cmd)) throw new Refusal('unknown_cmd', null, `unknown ${req.cmd}`);
  if (!table) throw new Refusal('no_game', null, 'start a game first');
  switch (req.cmd) {
    case 'state':
      return { ok: true, state: table.wire() };
    case 'legal':
      return { ok: true, player: table.turn, actions: table.legal() };
    case 'deal':
      if (table.phase !== 'deal_over') throw new Refusal('bad_phase', 'game.end', 'no next deal now');
      if (!req.hands) throw new Refusal('no_seed', 'setup.dealing', 'this engine cannot shuffle');
      table.startDeal(checkHands(req.hands, table.players));
      return { ok: true, state: table.wire() };
    default:
      table.act(req.player, req.action || {});
      return { ok: true, state: table.wire() };
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let reply;
  try {
    const req = JSON.parse(line);
    if (typeof req !== 'object' || req === null || Array.isArray(req)) throw new Refusal('bad_request', null, 'not an object');
    reply = handle(req);
  } catch (e) {
    if (e instanceof Refusal) reply = { ok: false, error: { code: e.code, rule: e.rule, message: e.message } };
    else if (e instanceof SyntaxError) reply = { ok: false, error: { code: 'bad_json', rule: null, message: e.message } };
    else reply = { ok: false, error: { code: 'internal', rule: null, message: String(e) } };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
  if (reply.ok && line.includes('"quit"')) process.exit(0);
});
