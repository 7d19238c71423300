// ESLint rule: periodic work goes through libs/scheduling (Periodic, PeriodicJob), the one mechanism
// that is replica-safe, never piles rounds up and waits for a round at shutdown (CONVENTIONS.md, "Not
// to copy"). Reports what a hand-written schedule is made of:
// - `setInterval`, called as a global or through `globalThis`/`timers`, or imported from node:timers;
// - a polling loop: `while (this.running)` or `while (!this.stopped)` (or `do ... while`) whose body
//   awaits something; `while (true)` or `for (;;)` whose body sleeps (setTimeout, `sleep`, `delay`).
// Loops over a local variable (`while (next)`, `while (left > 0)`) and endless loops that do not sleep
// (batches of one round until a short one) are the inner loops of one round.
const TIMER_MODULES = new Set(['timers', 'node:timers', 'timers/promises', 'node:timers/promises']);

const MESSAGE =
  'Periodic work uses Periodic or PeriodicJob from @platform/scheduling (cluster or process scope), not {{what}}.';

/** `true`, `this.x`, `!this.x`: a flag that only another part of the program changes. */
const isThisMember = (n) => n.type === 'MemberExpression' && n.object.type === 'ThisExpression';
/** `this.x`, `!this.x`: a flag that only another part of the program changes. */
const isFlagTest = (test) =>
  !!test &&
  (isThisMember(test) ||
    (test.type === 'UnaryExpression' && test.operator === '!' && isThisMember(test.argument)));
/** `for (;;)`, `while (true)`. */
const isEndless = (test) => !test || (test.type === 'Literal' && test.value === true);

const SLEEPS = new Set(['setTimeout', 'sleep', 'delay']);
const isAwait = (n) => n.type === 'AwaitExpression' || (n.type === 'ForOfStatement' && n.await);
const isSleep = (n) =>
  n.type === 'CallExpression' &&
  ((n.callee.type === 'Identifier' && SLEEPS.has(n.callee.name)) ||
    (n.callee.type === 'MemberExpression' && !n.callee.computed && SLEEPS.has(n.callee.property.name)));

/** A node matching `test` in the loop's body; `inFunctions`: also inside functions declared there. */
function contains(node, test, inFunctions) {
  let found = false;
  const visit = (n) => {
    if (found || !n || typeof n.type !== 'string') return;
    if (test(n)) {
      found = true;
      return;
    }
    if (!inFunctions && /Function/.test(n.type)) return;
    for (const key of Object.keys(n)) {
      if (key === 'parent') continue;
      const v = n[key];
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v.type === 'string') visit(v);
    }
  };
  visit(node);
  return found;
}

const isPolling = (node) =>
  (isFlagTest(node.test) && contains(node.body, isAwait, false)) ||
  // A sleep is often a `new Promise((r) => setTimeout(r, ms))`: look inside its callback too.
  (isEndless(node.test) && contains(node.body, isSleep, true));

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Periodic work goes through @platform/scheduling' },
    messages: { adHoc: MESSAGE },
    schema: [],
  },
  create(context) {
    const report = (node, what) => context.report({ node, messageId: 'adHoc', data: { what } });
    const loop = (node) => {
      if (isPolling(node)) report(node, 'a hand-written polling loop');
    };
    return {
      CallExpression(node) {
        const c = node.callee;
        if (
          (c.type === 'Identifier' && c.name === 'setInterval') ||
          (c.type === 'MemberExpression' && !c.computed && c.property.name === 'setInterval')
        )
          report(node, 'setInterval');
      },
      ImportDeclaration(node) {
        if (!TIMER_MODULES.has(node.source.value)) return;
        for (const s of node.specifiers)
          if (s.type === 'ImportSpecifier' && s.imported.name === 'setInterval') report(s, 'setInterval');
      },
      WhileStatement: loop,
      DoWhileStatement: loop,
      ForStatement: loop,
    };
  },
};
