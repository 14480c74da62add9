#!/usr/bin/env node
// "Tycoon": a third President engine written from scratch (cards are integers 0..51, rank = c >> 2),
// sharing no code with president/game/engine.py or with daifugo.js. Serves engine protocol v1.
//
// House rules (different from the CardVerse reference):
//   - the holder of the 3 of clubs leads the first deal           (first_lead = holder:3C)
//   - only the President scores, 1 point a deal                    (scoring = president_only)
//   - four of a kind never reverses the order, although the engine accepts revolution: true
//   - eights stop the trick: whoever plays 8s takes the trick at once and leads again
// Representation choices: once the deal is over the last trick and its passes stay shown.
// Capabilities: it can start from a position (hello.options.position).
'use strict';

const NAMES = [];
for (const r of ['3', '4', '5', '6', '7', '8', '9', '10', 'V', 'D', 'R', 'A', '2']) {
  for (const s of ['C', 'D', 'H', 'S']) NAMES.push(r + s);
}
const ID = new Map(NAMES.map((n, i) => [n, i]));
const EIGHT = 5;
const rank = (c) => c >> 2;
const names = (cs) => [...cs].sort((a, b) => a - b).map((c) => NAMES[c]);

function fail(code, rule, message) { const e = new Error(message); e.code = code; e.rule = rule; throw e; }
function ids(list) {
  if (!Array.isArray(list) || !list.every((n) => ID.has(n))) fail('bad_card', null, 'unknown card');
  return list.map((n) => ID.get(n));
}
function subsets(cs, k, from = 0, acc = [], out = []) {
  if (acc.length === k) { out.push([...acc]); return out; }
  for (let i = from; i < cs.length; i++) { acc.push(cs[i]); subsets(cs, k, i + 1, acc, out); acc.pop(); }
  return out;
}

let g = null; // the game: plain object, functions below
// `--declare`: the hello options declare the two house rules that have protocol option names
const DECLARE = process.argv.includes('--declare');

function newGame(cfg, hands, pos) {
  const n = cfg.players;
  g = { n, deals: cfg.deals || 1, deal: 0, scores: Array(n).fill(0), ranking: null };
  startDeal(hands);
  if (pos) {
    g.turn = pos.to_act;
    g.top = pos.trick ? { cs: ids(pos.trick.cards), by: pos.trick.by } : null;
    g.passed = new Set(pos.passed || []);
    g.out = [...(pos.finished || [])];
    if (pos.scores) g.scores = [...pos.scores];
  }
}

function startDeal(hands) {
  g.deal += 1;
  g.hands = hands.map((h) => new Set(ids(h)));
  g.top = null; g.passed = new Set(); g.out = []; g.owe = [];
  if (!g.ranking) {
    g.phase = 'play';
    const h = g.hands.findIndex((s) => s.has(0));
    g.turn = h < 0 ? 0 : h;
    return;
  }
  const gift = (from, to, k) => {
    const best = [...g.hands[from]].sort((a, b) => b - a).slice(0, k);
    best.forEach((c) => { g.hands[from].delete(c); g.hands[to].add(c); });
  };
  const rk = g.ranking;
  gift(rk[g.n - 1], rk[0], 2); g.owe.push([rk[0], rk[g.n - 1], 2, 'exchange.scum']);
  if (g.n >= 4) { gift(rk[g.n - 2], rk[1], 1); g.owe.push([rk[1], rk[g.n - 2], 1, 'exchange.vice']); }
  g.phase = 'exchange';
  g.turn = g.owe[0][0];
}

const active = (s) => g.hands[s].size > 0;

function legal() {
  if (g.phase === 'exchange') {
    const [who, , k] = g.owe[0];
    return subsets([...g.hands[who]].sort((a, b) => a - b), k).map((cs) => ({ type: 'give', cards: names(cs) }));
  }
  if (g.phase !== 'play') return [];
  const mine = [...g.hands[g.turn]].sort((a, b) => a - b);
  const out = g.top ? [{ type: 'pass' }] : [];
  for (let r = 0; r < 13; r++) {
    const same = mine.filter((c) => rank(c) === r);
    if (!same.length) continue;
    if (g.top && r <= rank(g.top.cs[0])) continue;
    const ks = g.top ? [g.top.cs.length] : [1, 2, 3, 4];
    for (const k of ks) for (const cs of subsets(same, k)) out.push({ type: 'play', cards: names(cs) });
  }
  return out;
}

function act(seat, a) {
  if (g.phase === 'deal_over' || g.phase === 'game_over') fail('bad_phase', 'deal.end', 'deal over');
  if (!Number.isInteger(seat) || seat < 0 || seat >= g.n) fail('bad_seat', 'turn.order', 'no such seat');
  if (g.phase === 'exchange') {
    const [who, to, k, rule] = g.owe[0];
    if (a.type !== 'give') fail('bad_phase', 'exchange.order', 'give first');
    if (seat !== who) fail('not_your_turn', 'exchange.order', `seat ${who} gives`);
    const cs = ids(a.cards);
    if (!cs.every((c) => g.hands[seat].has(c))) fail('not_in_hand', 'play.own-cards', 'not yours');
    if (cs.length !== k) fail('wrong_count', rule, `give ${k}`);
    cs.forEach((c) => { g.hands[seat].delete(c); g.hands[to].add(c); });
    g.owe.shift();
    if (g.owe.length) g.turn = g.owe[0][0]; else { g.phase = 'play'; g.turn = g.ranking[g.n - 1]; }
    return;
  }
  if (a.type === 'give') fail('bad_phase', 'exchange.order', 'no exchange');
  if (seat !== g.turn) fail('not_your_turn', active(seat) ? (g.passed.has(seat) ? 'pass.final' : 'turn.order') : 'flow.out', 'wait');
  if (a.type === 'pass') {
    if (!g.top) fail('must_play', 'lead.must-play', 'you lead');
    g.passed.add(seat);
    return next(seat);
  }
  const cs = ids(a.cards || []);
  if (new Set(cs).size !== cs.length || !cs.every((c) => g.hands[seat].has(c))) fail('not_in_hand', 'play.own-cards', 'not yours');
  if (cs.length < 1 || cs.length > 4) fail('wrong_count', 'flow.lead', '1 to 4');
  if (!cs.every((c) => rank(c) === rank(cs[0]))) fail('mixed_ranks', 'play.same-rank', 'same rank');
  if (g.top && cs.length !== g.top.cs.length) fail('wrong_count', 'play.count-matches', 'same count');
  if (g.top && rank(cs[0]) <= rank(g.top.cs[0])) fail('not_higher', 'play.strictly-higher', 'higher');
  cs.forEach((c) => g.hands[seat].delete(c));
  g.top = { cs, by: seat };
  if (!active(seat)) {
    g.out.push(seat);
    if (g.out.length === g.n - 1) return endDeal();
  }
  if (rank(cs[0]) === EIGHT) return clear(seat); // eights stop the trick
  return next(seat);
}

function clear(winner) {
  g.top = null; g.passed = new Set();
  let s = winner;
  while (!active(s)) s = (s + 1) % g.n;
  g.turn = s;
}

function next(seat) {
  for (let i = 1; i <= g.n; i++) {
    const s = (seat + i) % g.n;
    if (s !== g.top.by && active(s) && !g.passed.has(s)) { g.turn = s; return; }
  }
  clear(g.top.by);
}

function endDeal() {
  for (let s = 0; s < g.n; s++) if (active(s)) g.out.push(s);
  g.scores[g.out[0]] += 1;
  g.ranking = [...g.out];
  g.turn = null;
  g.phase = g.deal >= g.deals ? 'game_over' : 'deal_over';
}

function wire() {
  return {
    phase: g.phase, deal: g.deal, to_act: g.turn, order: 'normal',
    trick: g.top && { cards: names(g.top.cs), by: g.top.by }, passed: [...g.passed].sort(),
    hands: g.hands.map((h) => names(h)), finished: [...g.out], scores: [...g.scores],
  };
}

function checkHands(hands, n) {
  if (!Array.isArray(hands) || hands.length !== n) fail('bad_hands', 'setup.partial-hands', `${n} hands`);
  const all = hands.flatMap((h) => ids(h));
  if (hands.some((h) => h.length === 0) || new Set(all).size !== all.length) fail('bad_hands', 'setup.partial-hands', 'bad hands');
  return hands;
}

function handle(req) {
  if (req === null || typeof req !== 'object' || Array.isArray(req)) fail('bad_request', null, 'not an object');
  switch (req.cmd) {
    case 'hello':
      return { ok: true, protocol: 1, name: 'tycoon-js', version: '1.0', variant: 'cardverse-president', spec_version: '1.1.0',
        options: Object.assign({ players: [3, 4, 5, 6], revolution: [true, false], deals: true, seed: false, position: true },
          DECLARE ? { first_lead: ['holder:3C'], scoring: ['president_only'] } : {}) };
    case 'quit': return { ok: true };
    case 'new_game': {
      const cfg = req.config || {};
      if (!Number.isInteger(cfg.players) || cfg.players < 3 || cfg.players > 6) fail('bad_config', 'setup.players', '3-6 players');
      if (cfg.deals !== undefined && (!Number.isInteger(cfg.deals) || cfg.deals < 1)) fail('bad_config', 'game.end', 'deals');
      if (!req.hands) fail('no_seed', 'setup.dealing', 'give hands');
      newGame(cfg, checkHands(req.hands, cfg.players), req.position);
      return { ok: true, state: wire() };
    }
    default:
  }
  if (!['legal', 'act', 'deal', 'state'].includes(req.cmd)) fail('unknown_cmd', null, 'unknown command');
  if (!g) fail('no_game', null, 'no game');
  if (req.cmd === 'legal') return { ok: true, player: g.turn, actions: legal() };
  if (req.cmd === 'deal') {
    if (g.phase !== 'deal_over') fail('bad_phase', 'game.end', 'not now');
    if (!req.hands) fail('no_seed', 'setup.dealing', 'give hands');
    startDeal(checkHands(req.hands, g.n));
  } else if (req.cmd === 'act') {
    act(req.player, req.action || {});
  }
  return { ok: true, state: wire() };
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    let reply;
    try {
      reply = handle(JSON.parse(line));
    } catch (e) {
      reply = { ok: false, error: { code: e.code || 'bad_json', rule: e.rule === undefined ? null : e.rule, message: e.message } };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
    if (reply.ok && /"quit"/.test(line)) process.exit(0);
  }
});
