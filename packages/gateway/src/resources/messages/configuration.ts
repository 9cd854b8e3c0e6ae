import { invalidInput } from '@herald/model';
import type { ProjectActions } from '../projects/routes.js';
import { asDraft } from '../shared/validation.js';
import { DEFAULT_DELETE_DAYS, MAX_DELETE_DAYS, MIN_DELETE_DAYS } from './retention.js';

/**
 * The project action `changeMessagesConfiguration {messagesConfiguration: {enabled,
 * deleteDaysAfterCreation}}`. Disabled: messages still reach subscriptions through the outbox but
 * are no longer kept for the Messages API (§6.2 "if messages are enabled").
 */
export const messagesProjectActions: ProjectActions = {
  changeMessagesConfiguration(project, action) {
    const configuration = asDraft(action.messagesConfiguration, 'messagesConfiguration');
    if (typeof configuration.enabled !== 'boolean') {
      throw invalidInput("'messagesConfiguration.enabled' must be a boolean.", { field: 'messagesConfiguration.enabled' });
    }
    const days = configuration.deleteDaysAfterCreation ?? DEFAULT_DELETE_DAYS;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < MIN_DELETE_DAYS || days > MAX_DELETE_DAYS) {
      throw invalidInput(`'messagesConfiguration.deleteDaysAfterCreation' must be an integer from ${MIN_DELETE_DAYS} to ${MAX_DELETE_DAYS}.`, {
        field: 'messagesConfiguration.deleteDaysAfterCreation',
        invalidValue: days,
      });
    }
    project.messages = { enabled: configuration.enabled, deleteDaysAfterCreation: days };
  },
};
