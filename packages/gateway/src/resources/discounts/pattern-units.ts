import { compiledPredicate, type PredicateSubject } from '../../predicates/index.js';
import type { CartDiscountTarget, PatternComponent } from '../cart-discounts/cart-discount.js';
import { remainingOf, type Unit } from './cart-units.js';

export type PatternTarget = Extract<CartDiscountTarget, { type: 'pattern' }>;

/** One unit of a (custom) line item, with what a pattern component's predicate reads of its item. */
export interface PatternUnit {
  unit: Unit;
  kind: 'lineItem' | 'customLineItem';
  fields: PredicateSubject;
}

/** One application of a pattern target: the units its triggerPattern used and the ones its targetPattern discounts. */
export interface Occurrence {
  trigger: Unit[];
  target: Unit[];
}

interface Matcher {
  kind: PatternUnit['kind'];
  test: (fields: PredicateSubject) => boolean;
  minCount: number;
  maxCount: number;
  excludeCount: number;
}

function matcherOf(component: PatternComponent): Matcher {
  const kind = component.type === 'CountOnLineItemUnits' ? 'lineItem' : 'customLineItem';
  const compiled = compiledPredicate(component.predicate, kind);
  return {
    kind,
    test: (fields) => compiled.test(fields),
    // CountOnLineItemUnits: minCount "default: 1"; without maxCount "the component will match all units that satisfy the predicate".
    minCount: component.minCount ?? 1,
    maxCount: component.maxCount ?? Number.MAX_SAFE_INTEGER,
    excludeCount: component.excludeCount ?? 0,
  };
}

/**
 * The units one component takes from `free` (ordered as the component picks), or undefined when
 * fewer than it needs match. excludeCount (targetPattern only): "The units matched first … will
 * be excluded from the resulting set. The minCount and maxCount are considered only after the
 * exclusion": those units are used up by the occurrence but not discounted.
 */
function take(matcher: Matcher, free: PatternUnit[], excludedFirst: readonly PatternUnit[]): { used: PatternUnit[]; chosen: PatternUnit[] } | undefined {
  const matching = free.filter((each) => each.kind === matcher.kind && matcher.test(each.fields));
  if (matching.length < matcher.excludeCount + matcher.minCount) return undefined;
  const excluded = excludedFirst.filter((each) => matching.includes(each)).slice(0, matcher.excludeCount);
  const chosen = matching.filter((each) => !excluded.includes(each)).slice(0, matcher.maxCount);
  return { used: [...excluded, ...chosen], chosen };
}

/** Matches every component of `components` with distinct units of `free` (removing them), or undefined. */
function matchAll(
  matchers: readonly Matcher[],
  free: PatternUnit[],
  ordered: (units: PatternUnit[]) => PatternUnit[],
  opposite: (units: PatternUnit[]) => PatternUnit[],
): Unit[] | undefined {
  const chosen: Unit[] = [];
  const remaining = [...free];
  for (const matcher of matchers) {
    const taken = take(matcher, ordered(remaining), opposite(remaining));
    if (taken === undefined) return undefined;
    for (const each of taken.used) remaining.splice(remaining.indexOf(each), 1);
    chosen.push(...taken.chosen.map((each) => each.unit));
  }
  free.splice(0, free.length, ...remaining);
  return chosen;
}

/**
 * The occurrences of a CartDiscountPatternTarget on `units`: each occurrence matches the
 * triggerPattern's components, then the targetPattern's, with distinct units never used before
 * ("each unit can be discounted only once"; "The units matched in the triggerPattern are excluded
 * and not considered for the targetPattern"), repeated until a component finds too few units or
 * `maxOccurrence` is reached. selectionMode decides which units the target takes (Cheapest: the
 * lowest prices left); the trigger and the excluded units are taken from the other end, so they
 * leave the selected units to the target.
 */
export function patternOccurrences(units: readonly PatternUnit[], target: PatternTarget): Occurrence[] {
  const cheapestFirst = (list: PatternUnit[]) => [...list].sort((a, b) => remainingOf(a.unit) - remainingOf(b.unit));
  const dearestFirst = (list: PatternUnit[]) => [...list].sort((a, b) => remainingOf(b.unit) - remainingOf(a.unit));
  const [selected, other] = target.selectionMode === 'Cheapest' ? [cheapestFirst, dearestFirst] : [dearestFirst, cheapestFirst];
  const triggers = target.triggerPattern.map(matcherOf);
  const targets = target.targetPattern.map(matcherOf);
  const free = [...units];
  const occurrences: Occurrence[] = [];
  while (occurrences.length < (target.maxOccurrence ?? Number.MAX_SAFE_INTEGER)) {
    const trigger = matchAll(triggers, free, other, selected);
    const discounted = trigger === undefined ? undefined : matchAll(targets, free, selected, other);
    if (trigger === undefined || discounted === undefined || discounted.length === 0) break;
    // Each occurrence uses up at least one unit, so this ends ("If empty [triggerPattern], the Discount will apply indefinitely").
    occurrences.push({ trigger, target: discounted });
  }
  return occurrences;
}
