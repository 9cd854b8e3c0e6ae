import type { Clock } from '@herald/model';
import type { Project } from '@herald/store';

export const DEFAULT_DELETE_DAYS = 15;
export const MIN_DELETE_DAYS = 1;
export const MAX_DELETE_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

export function retentionDays(project: Pick<Project, 'messages'>): number {
  const days = project.messages?.deleteDaysAfterCreation;
  return typeof days === 'number' && Number.isInteger(days) ? days : DEFAULT_DELETE_DAYS;
}

/** Messages created before this instant have expired (`deleteDaysAfterCreation`). */
export function expiryCutoff(project: Pick<Project, 'messages'>, clock: Clock): Date {
  return new Date(clock.now().getTime() - retentionDays(project) * DAY_MS);
}
