/**
 * Told to the handler (`context.late`) when a delivery is handed over after a later one of its
 * resource's lane already was: its predecessor-to-be arrived too late to be put in order (after a
 * brief hold of a filtered lane or a first-seen resource ended, after a gap release, or after
 * another instance moved the stored position past it). It is handed over all the same — nothing
 * accepted is dropped — and it is not a duplicate: that one would not reach the handler at all.
 * The handler decides what "late" means for it (apply, merge by version, or only record it).
 */
export interface LateNotice {
  readonly lane: 'messages' | 'changes';
  /** sequenceNumber (messages) or version (changes) of this delivery. */
  readonly released: number;
  /**
   * The highest sequenceNumber or version of the lane handed over before it, here or (per the
   * stored position) by another instance. Equal to `released` when this very delivery was handled
   * before but its "processed" record was lost (it runs again rather than not at all).
   */
  readonly alreadyReleased: number;
}
