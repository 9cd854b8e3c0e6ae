/**
 * Turns `init` into a constructor of plain objects. Deliveries, origins and CloudEvents attributes
 * are made with `new`, not as object literals: V8 decides for each object literal in the code
 * whether to allocate its objects straight in the old generation ("allocation site pretenuring"),
 * from how many of them survive a young-generation collection; a delivery in flight lives close to
 * that threshold, so some runs of the pipeline benchmark flipped to allocating every delivery in
 * the old generation and spent a quarter more CPU per delivery on collecting it there. Objects made
 * by `new` are not subject to that decision.
 *
 * A class would give them its own prototype, which users see: `toStrictEqual` and
 * `assert.deepStrictEqual` no longer match the object literals earlier versions handed out,
 * `util.inspect` names the class, and parameter properties come before the other fields, which
 * reorders the keys of `JSON.stringify`. A plain function whose `prototype` is `Object.prototype`
 * makes objects indistinguishable from literals (same prototype, keys in the order `init` assigns
 * them), allocated as a class's are.
 */
export function plainConstructor<Made extends object, Args extends unknown[]>(
  init: (this: { -readonly [Key in keyof Made]: Made[Key] }, ...args: Args) => void,
): new (...args: Args) => Made {
  init.prototype = Object.prototype;
  return init as unknown as new (...args: Args) => Made;
}
