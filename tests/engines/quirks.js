#!/usr/bin/env node
// quirks.js: two President engines written from the published rule sheets (ru/el) and
// docs/protocol.md, sharing no code with president/game/. `node tests/engines/quirks.js PROFILE`
// serves engine protocol v1 on stdin/stdout (replies only).
//
// - keeps-turn: a seat that plays its last card keeps the turn. It stays `to_act` with an empty
//   hand (a finished seat to act) and its only legal action is a pass, which is not recorded in
//   `passed` and hands the turn on as its play would have: to the next seat that has not passed,
//   or, if every other seat has passed, the trick ends and the next seat still holding cards leads
//   (1.1.0: a player with no cards left leaves the deal at once and the next seat acts, `flow.out`).
// - heart-seven: the holder of the 7 of hearts leads the first deal and may lead anything (the 7H
//   need not be in it); a `new_game` whose hands nobody holds the 7H in is refused (`bad_hands`,
//   rule setup.first-lead). It declares no first_lead option. Later deals are led by the previous
//   last place, as in 1.1.0 (1.1.0: seat 0 leads the first deal, `setup.first-lead`). The deck has
//   no jokers, and the engine plays none.
//
// Everything else is CardVerse 1.1.0: 3 to 6 players, revolution on or off, series of deals with
// the exchange (the Scum's 2 best cards to the President, and with 4 or more players the
// Vice-Scum's best card to the Vice-President; they give back cards of their choice), points
// n - p + 1. No seed: a seeded `new_game` is refused.
// Representation: a hand is a BigInt bit set, bit = suit * 13 + rank (suit-major, unlike the
// protocol's rank-major order); the trick is {mask, rank, size, by}; passes are a bit set too.
'use strict';
const readline = require('readline');

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2'];
const SUITS = ['C', 'D', 'H', 'S'];
const PROFILES = ['keeps-turn', 'heart-seven'];
const DEFAULTS = { equality: false, sequences: false, jokers: 0, first_lead: 'seat0', leader_may_pass: false, scoring: 'places' };
const SEVEN_HEARTS = 2 * 13 + 4;

class Refusal extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const bit = (i) => 1n << BigInt(i);
const has = (mask, i) => (mask >> BigInt(i)) & 1n;

function parseCard(text) {
  if (typeof text !== 'string') throw new Refusal('bad_card', null, `not a card: ${JSON.stringify(text)}`);
  const r = RANKS.indexOf(text.slice(0, -1));
  const s = SUITS.indexOf(text.slice(-1));
  if (r < 0 || s < 0 || text.length < 2) throw new Refusal('bad_card', null, `not a card: ${JSON.stringify(text)}`);
  return s * 13 + r;
}
const rankOf = (i) => i % 13;
const nameOf = (i) => RANKS[rankOf(i)] + SUITS[Math.floor(i / 13)];
function indices(mask) {
  const out = [];
  for (let i = 0; i < 52; i++) if (has(mask, i)) out.push(i);
  // the protocol lists cards lowest first: rank, then suit
  return out.sort((a, b) => rankOf(a) - rankOf(b) || a - b);
}
const names = (mask) => indices(mask).map(nameOf);
function toMask(list) {
  let m = 0n;
  for (const t of list) {
    const i = parseCard(t);
    if (has(m, i)) throw new Refusal('not_in_hand', 'play.own-cards', `${t} twice`);
    m |= bit(i);
  }
  return m;
}
function subsets(items, k, start = 0, chosen = [], out = []) {
  if (chosen.length === k) { out.push([...chosen]); return out; }
  for (let i = start; i < items.length; i++) { chosen.push(items[i]); subsets(items, k, i + 1, chosen, out); chosen.pop(); }
  return out;
}
const count = (mask) => indices(mask).length;

class Table {
  constructor(profile, n, revolution, deals) {
    Object.assign(this, { profile, n, revolution, deals });
    this.scores = Array(n).fill(0);
    this.number = 0;
    this.ranking = [];
  }

  start(hands) {
    this.hands = hands;
    this.number += 1;
    this.reversed = false;
    this.trick = null;
    this.passed = 0n;
    this.done = [];
    this.stays = null; // keeps-turn: the seat that went out and still holds the turn
    this.gifts = [];
    if (this.ranking.length === 0) {
      this.phase = 'play';
      this.toAct = 0;
      if (this.profile === 'heart-seven') this.toAct = hands.findIndex((h) => has(h, SEVEN_HEARTS));
      return;
    }
    const first = this.ranking[0], last = this.ranking[this.ranking.length - 1];
    this.handOver(last, first, indices(this.hands[last]).slice(-2));
    this.gifts.push([first, last, 2, 'exchange.scum']);
    if (this.n >= 4) {
      const second = this.ranking[1], secondLast = this.ranking[this.ranking.length - 2];
      this.handOver(secondLast, second, indices(this.hands[secondLast]).slice(-1));
      this.gifts.push([second, secondLast, 1, 'exchange.vice']);
    }
    this.phase = 'exchange';
    this.toAct = this.gifts[0][0];
  }

  handOver(from, to, cards) {
    for (const c of cards) { this.hands[from] &= ~bit(c); this.hands[to] |= bit(c); }
  }

  beats(rank) { return this.reversed ? rank < this.trick.rank : rank > this.trick.rank; }

  legal() {
    if (this.phase === 'exchange') {
      const [seat, , k] = this.gifts[0];
      return subsets(indices(this.hands[seat]), k).map((c) => ({ type: 'give', cards: c.map(nameOf) }));
    }
    if (this.phase !== 'play') return [];
    if (this.stays !== null) return [{ type: 'pass' }];
    const byRank = new Map();
    for (const i of indices(this.hands[this.toAct])) {
      if (!byRank.has(rankOf(i))) byRank.set(rankOf(i), []);
      byRank.get(rankOf(i)).push(i);
    }
    const out = this.trick ? [{ type: 'pass' }] : [];
    for (const [rank, cards] of byRank) {
      const sizes = !this.trick ? [1, 2, 3, 4] : this.beats(rank) ? [this.trick.size] : [];
      for (const k of sizes) for (const c of subsets(cards, k)) out.push({ type: 'play', cards: c.map(nameOf) });
    }
    return out;
  }

  act(seat, action) {
    if (this.phase === 'deal_over' || this.phase === 'game_over') throw new Refusal('bad_phase', 'game.end', 'the deal is over');
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.n) throw new Refusal('bad_seat', 'turn.order', `no seat ${JSON.stringify(seat)}`);
    const type = action && action.type;
    if (!['play', 'pass', 'give'].includes(type)) throw new Refusal('bad_field', null, `unknown action type ${JSON.stringify(type)}`);
    let mask = 0n;
    if (type !== 'pass') {
      if (!Array.isArray(action.cards)) throw new Refusal('bad_field', null, 'cards: a list');
      mask = toMask(action.cards);
    }
    if (this.phase === 'exchange') return this.give(seat, type, mask);
    if (type === 'give') throw new Refusal('bad_phase', 'exchange.order', 'no exchange now');
    if (seat !== this.toAct) {
      if (!this.hands[seat]) throw new Refusal('not_your_turn', 'flow.out', `seat ${seat} is out`);
      throw new Refusal('not_your_turn', this.number === 1 && !this.trick && this.done.length === 0 ? 'setup.first-lead' : 'turn.order', `seat ${this.toAct} is to act`);
    }
    if (this.stays !== null) {
      if (type !== 'pass') throw new Refusal('not_in_hand', 'play.own-cards', 'you hold no card: pass');
      this.stays = null;
      return this.onward(seat);
    }
    if (type === 'pass') {
      if (!this.trick) throw new Refusal('must_play', 'lead.must-play', 'the leader must play');
      this.passed |= bit(seat);
      return this.onward(seat);
    }
    if ((mask & this.hands[seat]) !== mask) throw new Refusal('not_in_hand', 'play.own-cards', 'cards you do not hold');
    const cards = indices(mask);
    if (cards.length < 1 || cards.length > 4) throw new Refusal('wrong_count', 'flow.lead', 'play 1 to 4 cards');
    const rank = rankOf(cards[0]);
    if (cards.some((c) => rankOf(c) !== rank)) throw new Refusal('mixed_ranks', 'play.same-rank', 'one rank only');
    if (this.trick) {
      if (cards.length !== this.trick.size) throw new Refusal('wrong_count', 'play.count-matches', `play ${this.trick.size} card(s)`);
      if (!this.beats(rank)) throw new Refusal('not_higher', 'play.strictly-higher', 'play a higher rank');
    }
    this.hands[seat] &= ~mask;
    this.trick = { mask, rank, size: cards.length, by: seat };
    if (this.revolution && cards.length === 4) this.reversed = !this.reversed;
    if (!this.hands[seat]) {
      this.done.push(seat);
      if (this.done.length === this.n - 1) return this.end();
      if (this.profile === 'keeps-turn') { this.stays = seat; return; }
    }
    return this.onward(seat);
  }

  // the turn after `seat` acted: the next seat holding cards that has not passed, or the end of the trick
  onward(seat) {
    const by = this.trick.by;
    for (let step = 1; step <= this.n; step++) {
      const s = (seat + step) % this.n;
      if (this.hands[s] && !has(this.passed, s) && s !== by) { this.toAct = s; return; }
    }
    this.trick = null;
    this.passed = 0n;
    for (let step = 0; step < this.n; step++) {
      const s = (by + step) % this.n;
      if (this.hands[s]) { this.toAct = s; return; }
    }
  }

  give(seat, type, mask) {
    const [chooser, receiver, k, clause] = this.gifts[0];
    if (type !== 'give') throw new Refusal('bad_phase', 'exchange.order', 'the exchange comes first');
    if (seat !== chooser) throw new Refusal('not_your_turn', 'exchange.order', `seat ${chooser} gives back`);
    if ((mask & this.hands[seat]) !== mask) throw new Refusal('not_in_hand', 'play.own-cards', 'cards you do not hold');
    if (count(mask) !== k) throw new Refusal('wrong_count', clause, `give ${k} card(s)`);
    this.handOver(seat, receiver, indices(mask));
    this.gifts.shift();
    if (this.gifts.length) this.toAct = this.gifts[0][0];
    else { this.phase = 'play'; this.toAct = this.ranking[this.ranking.length - 1]; }
  }

  end() {
    for (let s = 0; s < this.n; s++) if (!this.done.includes(s)) this.done.push(s);
    this.done.forEach((seat, i) => { this.scores[seat] += this.n - i; });
    this.ranking = [...this.done];
    this.trick = null;
    this.passed = 0n;
    this.toAct = null;
    this.phase = this.number >= this.deals ? 'game_over' : 'deal_over';
  }

  state() {
    const passed = [];
    for (let s = 0; s < this.n; s++) if (has(this.passed, s)) passed.push(s);
    return {
      phase: this.phase, deal: this.number, to_act: this.toAct,
      order: this.reversed ? 'reversed' : 'normal',
      trick: this.trick ? { cards: names(this.trick.mask), by: this.trick.by } : null,
      passed, hands: this.hands.map(names),
      finished: this.phase === 'exchange' ? [...this.ranking] : [...this.done],
      scores: [...this.scores],
    };
  }
}

function readHands(raw, n, profile, first) {
  if (!Array.isArray(raw) || raw.length !== n) throw new Refusal('bad_hands', 'setup.partial-hands', `${n} hands`);
  let all = 0n;
  const hands = raw.map((h) => {
    if (!Array.isArray(h) || h.length === 0) throw new Refusal('bad_hands', 'setup.partial-hands', 'every hand holds a card');
    const m = toMask(h);
    if (all & m) throw new Refusal('bad_hands', 'setup.partial-hands', 'a card is dealt twice');
    all |= m;
    return m;
  });
  if (first && profile === 'heart-seven' && !has(all, SEVEN_HEARTS)) {
    throw new Refusal('bad_hands', 'setup.first-lead', 'nobody holds the 7H, who leads the first deal');
  }
  return hands;
}

function newGame(profile, req) {
  const config = req.config;
  if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Refusal('missing_field', null, 'config');
  for (const [key, value] of Object.entries(config)) {
    if (['players', 'revolution', 'deals'].includes(key)) continue;
    if (!(key in DEFAULTS)) throw new Refusal('unknown_option', null, `unknown option ${key}`);
    if (value !== DEFAULTS[key]) throw new Refusal('bad_config', null, `${key}=${JSON.stringify(value)} is not played here`);
  }
  const n = config.players, revolution = config.revolution ?? true, deals = config.deals ?? 1;
  if (!Number.isInteger(n) || n < 3 || n > 6) throw new Refusal('bad_config', 'setup.players', '3 to 6 players');
  if (typeof revolution !== 'boolean') throw new Refusal('bad_config', 'revolution.option-off', 'revolution: true or false');
  if (!Number.isInteger(deals) || deals < 1) throw new Refusal('bad_config', 'game.end', 'deals: a whole number from 1');
  if (!('hands' in req)) throw new Refusal('no_seed', 'setup.dealing', 'this engine deals no seed: send the hands');
  const table = new Table(profile, n, revolution, deals);
  table.start(readHands(req.hands, n, profile, true));
  return table;
}

function main(profile) {
  let table = null;
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let reply;
    try {
      let req;
      try { req = JSON.parse(line); } catch (e) { throw new Refusal('bad_json', null, String(e.message)); }
      if (!req || typeof req !== 'object' || Array.isArray(req)) throw new Refusal('bad_request', null, 'a request is an object');
      const cmd = req.cmd;
      if (cmd === 'hello') {
        reply = { ok: true, protocol: 1, name: `quirks-${profile}`, version: '1', variant: 'cardverse-president', spec_version: '1.1.0',
          options: { players: [3, 4, 5, 6], revolution: [true, false], deals: true } };
      } else if (cmd === 'quit') {
        process.stdout.write('{"ok":true}\n', () => process.exit(0));
        rl.close();
        return;
      } else if (cmd === 'new_game') {
        table = newGame(profile, req);
        reply = { ok: true, state: table.state() };
      } else if (['legal', 'act', 'deal', 'state'].includes(cmd)) {
        if (!table) throw new Refusal('no_game', null, 'no game yet');
        if (cmd === 'legal') reply = { ok: true, player: table.toAct, actions: table.legal() };
        else {
          if (cmd === 'act') table.act(req.player, req.action);
          if (cmd === 'deal') {
            if (table.phase !== 'deal_over') throw new Refusal('bad_phase', 'game.end', 'no next deal now');
            if (!('hands' in req)) throw new Refusal('no_seed', 'setup.dealing', 'send the hands');
            table.start(readHands(req.hands, table.n, profile, false));
          }
          reply = { ok: true, state: table.state() };
        }
      } else throw new Refusal('unknown_cmd', null, `unknown command ${JSON.stringify(cmd)}`);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      reply = { ok: false, error: { code: e.code, rule: e.rule, message: e.message } };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
}

if (!PROFILES.includes(process.argv[2]) || process.argv.length !== 3) {
  process.stderr.write(`usage: quirks.js {${PROFILES.join(',')}}\n`);
  process.exit(2);
}
main(process.argv[2]);
