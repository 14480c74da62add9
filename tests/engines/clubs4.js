#!/usr/bin/env node
// clubs4.js: a President engine written from the published rule sheets (ru/el) and the spec's
// clause option.first-lead.holder, sharing no code with president/game/. It serves engine
// protocol v1 on stdin/stdout (replies only).
//
// What it plays: CardVerse 1.1.0, except who leads the first deal: the player holding the 4 of
// clubs leads it, and that first play must contain the 4 of clubs (a pass is refused too, as a
// leader's always is); a game whose hands nobody holds the 4 of clubs in is refused. That is the
// spec's house rule first_lead = holder:4C, played always, although the engine declares no
// first_lead option (it accepts first_lead: "seat0" in new_game.config and still plays its own
// rule). Later deals are led by the previous last place, as in 1.1.0. Everything else is 1.1.0.
// Representation: cards are records {r, s, id} shared from one table of 52; a hand is a Map
// from id to record; a trick remembers its rank and size only.
'use strict';
const readline = require('readline');

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2'];
const SUITS = ['C', 'D', 'H', 'S'];
const CARDS = new Map();
RANKS.forEach((r, ri) => SUITS.forEach((s, si) => CARDS.set(r + s, { r: ri, s: si, id: r + s, k: ri * 4 + si })));
const FIRST_CARD = '4C';
const OPTION_NAMES = ['revolution', 'deals', 'equality', 'sequences', 'jokers', 'first_lead', 'leader_may_pass', 'scoring'];

function refuse(code, rule, message) { const e = new Error(message); e.refusal = { code, rule, message }; throw e; }
const sortCards = (cs) => [...cs].sort((a, b) => a.k - b.k);
const ids = (cs) => sortCards(cs).map((c) => c.id);

function card(text) {
  if (text === 'X1' || text === 'X2') refuse('bad_card', 'setup.no-jokers-sequences', 'this deck has no jokers');
  if (typeof text !== 'string' || !CARDS.has(text)) refuse('bad_card', null, `not a card: ${JSON.stringify(text)}`);
  return CARDS.get(text);
}

function cardList(list) {
  if (!Array.isArray(list)) refuse('bad_field', null, 'cards: a list of cards');
  return list.map(card);
}

function combinations(items, k, start = 0, chosen = [], out = []) {
  if (chosen.length === k) { out.push([...chosen]); return out; }
  for (let i = start; i < items.length; i++) { chosen.push(items[i]); combinations(items, k, i + 1, chosen, out); chosen.pop(); }
  return out;
}

class Series {
  constructor(seats, revolution, deals) {
    this.seats = seats;
    this.revolution = revolution;
    this.deals = deals;
    this.totals = Array(seats).fill(0);
    this.played = 0;
    this.lastOrder = null;
  }

  deal(hands) {
    this.hands = hands.map((h) => new Map(h.map((c) => [c.id, c])));
    this.played += 1;
    this.reversed = false;
    this.trick = null; // {r, size, by, cards}
    this.passes = [];
    this.outs = [];
    this.queue = [];
    this.mustContain = null;
    if (this.lastOrder === null) {
      this.phase = 'play';
      this.turn = this.hands.findIndex((h) => h.has(FIRST_CARD));
      this.mustContain = FIRST_CARD;
      return;
    }
    const order = this.lastOrder;
    const n = this.seats;
    const steps = [[order[n - 1], order[0], 2, 'exchange.scum']];
    if (n >= 4) steps.push([order[n - 2], order[1], 1, 'exchange.vice']);
    for (const [poor, rich, k, rule] of steps) {
      const best = sortCards(this.hands[poor].values()).slice(-k);
      for (const c of best) { this.hands[poor].delete(c.id); this.hands[rich].set(c.id, c); }
      this.queue.push({ giver: rich, receiver: poor, k, rule });
    }
    this.phase = 'exchange';
    this.turn = this.queue[0].giver;
  }

  inPlay(seat) { return this.hands[seat].size > 0; }
  beats(r) { return this.reversed ? r < this.trick.r : r > this.trick.r; }

  legal() {
    if (this.phase === 'exchange') {
      const q = this.queue[0];
      return combinations(sortCards(this.hands[q.giver].values()), q.k).map((cs) => ({ type: 'give', cards: ids(cs) }));
    }
    if (this.phase !== 'play') return [];
    const list = [];
    if (this.trick) list.push({ type: 'pass' });
    const byRank = [];
    for (const c of sortCards(this.hands[this.turn].values())) (byRank[c.r] = byRank[c.r] || []).push(c);
    for (const group of byRank) {
      if (!group) continue;
      if (this.trick && !this.beats(group[0].r)) continue;
      const sizes = this.trick ? [this.trick.size] : [1, 2, 3, 4];
      for (const k of sizes) {
        for (const cs of combinations(group, k)) {
          if (this.mustContain && !cs.some((c) => c.id === this.mustContain)) continue;
          list.push({ type: 'play', cards: ids(cs) });
        }
      }
    }
    return list;
  }

  act(seat, action) {
    if (this.phase === 'deal_over' || this.phase === 'game_over') {
      refuse('bad_phase', this.phase === 'game_over' ? 'game.end' : 'deal.end', 'the deal is over');
    }
    if (!Number.isInteger(seat)) refuse('bad_field', null, 'player: a seat number');
    if (seat < 0 || seat >= this.seats) refuse('bad_seat', 'turn.order', `no seat ${seat}`);
    if (!action || typeof action !== 'object' || !['play', 'pass', 'give'].includes(action.type)) {
      refuse('bad_field', null, 'action: play, pass or give');
    }
    const cards = action.type === 'pass' ? [] : cardList(action.cards);
    const hand = this.hands[seat];
    const own = () => new Set(cards.map((c) => c.id)).size === cards.length && cards.every((c) => hand.has(c.id));
    if (this.phase === 'exchange') {
      const q = this.queue[0];
      if (action.type !== 'give') refuse('bad_phase', 'exchange.order', 'the exchange comes first');
      if (seat !== q.giver) refuse('not_your_turn', 'exchange.order', `seat ${q.giver} gives back now`);
      if (!own()) refuse('not_in_hand', 'play.own-cards', 'you do not hold these cards');
      if (cards.length !== q.k) refuse('wrong_count', q.rule, `give back ${q.k}`);
      for (const c of cards) { hand.delete(c.id); this.hands[q.receiver].set(c.id, c); }
      this.queue.shift();
      if (this.queue.length) this.turn = this.queue[0].giver;
      else { this.phase = 'play'; this.turn = this.lastOrder[this.seats - 1]; }
      return;
    }
    if (action.type === 'give') refuse('bad_phase', 'exchange.order', 'no exchange now');
    if (seat !== this.turn) {
      const rule = !this.inPlay(seat) ? 'flow.out' : this.passes.includes(seat) ? 'pass.final'
        : this.mustContain ? 'option.first-lead.holder' : 'turn.order';
      refuse('not_your_turn', rule, `seat ${this.turn} is to act`);
    }
    if (action.type === 'pass') {
      if (!this.trick) refuse('must_play', this.mustContain ? 'option.first-lead.holder' : 'lead.must-play', 'the leader must play');
      this.passes.push(seat);
      this.advance(seat);
      return;
    }
    if (!own()) refuse('not_in_hand', 'play.own-cards', 'you do not hold these cards');
    if (cards.length < 1 || cards.length > 4) refuse('wrong_count', 'flow.lead', '1 to 4 cards');
    if (new Set(cards.map((c) => c.r)).size !== 1) refuse('mixed_ranks', 'play.same-rank', 'cards of one rank');
    if (this.mustContain && !cards.some((c) => c.id === this.mustContain)) {
      refuse('must_contain', 'option.first-lead.holder', `the first play must contain ${this.mustContain}`);
    }
    if (this.trick) {
      if (cards.length !== this.trick.size) refuse('wrong_count', 'play.count-matches', `play ${this.trick.size} card(s)`);
      if (!this.beats(cards[0].r)) refuse('not_higher', 'play.strictly-higher', 'not higher in the current order');
    }
    for (const c of cards) hand.delete(c.id);
    this.mustContain = null;
    this.trick = { r: cards[0].r, size: cards.length, by: seat, cards: ids(cards) };
    if (this.revolution && cards.length === 4) this.reversed = !this.reversed;
    if (!this.inPlay(seat)) {
      this.outs.push(seat);
      const rest = [];
      for (let s = 0; s < this.seats; s++) if (this.inPlay(s)) rest.push(s);
      if (rest.length === 1) { this.close(rest[0]); return; }
    }
    this.advance(seat);
  }

  advance(seat) {
    const by = this.trick ? this.trick.by : -1;
    for (let i = 1; i <= this.seats; i++) {
      const s = (seat + i) % this.seats;
      if (s !== by && this.inPlay(s) && !this.passes.includes(s)) { this.turn = s; return; }
    }
    this.trick = null;
    this.passes = [];
    let s = by;
    while (!this.inPlay(s)) s = (s + 1) % this.seats;
    this.turn = s;
  }

  close(last) {
    this.outs.push(last);
    this.outs.forEach((s, i) => { this.totals[s] += this.seats - i; });
    this.lastOrder = [...this.outs];
    this.turn = null;
    this.trick = null;
    this.passes = [];
    this.reversed = false;
    this.phase = this.played >= this.deals ? 'game_over' : 'deal_over';
  }

  snapshot() {
    return {
      phase: this.phase, deal: this.played, to_act: this.turn, order: this.reversed ? 'reversed' : 'normal',
      trick: this.trick && { cards: [...this.trick.cards], by: this.trick.by },
      passed: [...this.passes].sort((a, b) => a - b),
      hands: this.hands.map((h) => ids(h.values())), finished: [...this.outs], scores: [...this.totals],
    };
  }
}

function hands(raw, n, first) {
  if (!Array.isArray(raw) || !raw.every(Array.isArray)) refuse('bad_field', null, 'hands: a list of lists');
  if (raw.length !== n) refuse('bad_hands', 'setup.partial-hands', `${n} hands`);
  if (raw.some((h) => h.includes('X1') || h.includes('X2'))) refuse('bad_hands', 'setup.no-jokers-sequences', 'no jokers');
  const parsed = raw.map(cardList);
  const seen = new Set();
  for (const h of parsed) {
    if (!h.length) refuse('bad_hands', 'setup.partial-hands', 'an empty hand');
    for (const c of h) { if (seen.has(c.id)) refuse('bad_hands', 'setup.partial-hands', `${c.id} dealt twice`); seen.add(c.id); }
  }
  if (first && !seen.has(FIRST_CARD)) refuse('bad_hands', 'option.first-lead.holder', `nobody holds ${FIRST_CARD}`);
  return parsed;
}

function settings(cfg) {
  if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg)) refuse('bad_field', null, 'config: an object');
  for (const key of Object.keys(cfg)) if (key !== 'players' && !OPTION_NAMES.includes(key)) refuse('unknown_option', null, `unknown option '${key}'`);
  const n = cfg.players;
  if (!Number.isInteger(n) || n < 3 || n > 6) refuse('bad_config', 'setup.players', '3 to 6 players');
  const deals = cfg.deals === undefined ? 1 : cfg.deals;
  if (!Number.isInteger(deals) || deals < 1) refuse('bad_config', 'game.end', 'deals: an integer >= 1');
  const revolution = cfg.revolution === undefined ? true : cfg.revolution;
  if (typeof revolution !== 'boolean') refuse('bad_config', 'revolution.option-off', 'revolution: true or false');
  const fixed = { equality: [false, 'option.equality.on'], sequences: [false, 'option.sequences.on'], jokers: [0, 'option.jokers.two'],
    first_lead: ['seat0', 'option.first-lead.holder'], leader_may_pass: [false, 'option.leader-may-pass.on'],
    scoring: ['places', 'option.scoring.none'] };
  for (const [key, [value, rule]] of Object.entries(fixed)) {
    if (cfg[key] !== undefined && cfg[key] !== value) refuse('bad_config', rule, `${key}=${JSON.stringify(cfg[key])} is not played`);
  }
  return { n, deals, revolution };
}

let series = null;

function answer(req) {
  switch (req.cmd) {
    case 'hello':
      return { ok: true, protocol: 1, name: 'clubs4-js', version: '1.0', variant: 'cardverse-president',
        spec_version: '1.1.0', options: { players: [3, 4, 5, 6], revolution: [true, false], deals: true } };
    case 'quit':
      return { ok: true };
    case 'new_game': {
      const s = settings(req.config === undefined ? {} : req.config);
      if (req.hands === undefined) refuse('missing_field', 'setup.dealing', 'no shuffle here: give the hands');
      const fresh = new Series(s.n, s.revolution, s.deals);
      fresh.deal(hands(req.hands, s.n, true));
      series = fresh;
      return { ok: true, state: series.snapshot() };
    }
    case 'deal': case 'legal': case 'act': case 'state':
      if (!series) refuse('no_game', null, 'new_game first');
      break;
    default:
      refuse('unknown_cmd', null, `unknown command ${JSON.stringify(req.cmd)}`);
  }
  if (req.cmd === 'state') return { ok: true, state: series.snapshot() };
  if (req.cmd === 'legal') return { ok: true, player: series.turn, actions: series.legal() };
  if (req.cmd === 'deal') {
    if (series.phase !== 'deal_over') refuse('bad_phase', series.phase === 'game_over' ? 'game.end' : 'deal.end', 'no next deal now');
    if (req.hands === undefined) refuse('missing_field', 'setup.dealing', 'no shuffle here: give the hands');
    series.deal(hands(req.hands, series.seats, false));
    return { ok: true, state: series.snapshot() };
  }
  if (req.player === undefined || req.action === undefined) refuse('missing_field', null, 'act: player and action');
  series.act(req.player, req.action);
  return { ok: true, state: series.snapshot() };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let reply;
  let req = null;
  try {
    try { req = JSON.parse(line); } catch (e) { refuse('bad_json', null, 'not JSON'); }
    if (!req || typeof req !== 'object' || Array.isArray(req)) { req = null; refuse('bad_request', null, 'not an object'); }
    reply = answer(req);
  } catch (e) {
    reply = e.refusal ? { ok: false, error: e.refusal } : { ok: false, error: { code: 'internal', rule: null, message: String(e) } };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
  if (reply.ok && req && req.cmd === 'quit') { rl.close(); process.stdout.end(() => process.exit(0)); }
});
