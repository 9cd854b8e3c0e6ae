import { invalidInput, type BaseResource, type Reference } from '@herald/model';
import type { DocumentStore, Locator, Queryable, ServerFields } from '@herald/store';
import { asDraft, localizedString, validKey } from '../shared/validation.js';
import type { ResourceDefinition } from '../shared/versioned-routes.js';
import { STATE_TYPES, type State, type StateType } from './state.js';
import { roleActions, roles } from './roles.js';
import { identifierLocator } from '../shared/references.js';
import { referencingType } from '../shared/reference-exists.js';

type Load = <T extends BaseResource>(typeId: string, locator: Locator) => Promise<T | undefined>;

function stateType(value: unknown): StateType {
  if (typeof value !== 'string' || !(STATE_TYPES as readonly string[]).includes(value)) {
    throw invalidInput(`'type' must be one of ${STATE_TYPES.join(', ')}.`, { field: 'type', invalidValue: value });
  }
  return value as StateType;
}

function booleanField(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalidInput(`'${field}' must be a boolean.`, { field });
  return value;
}

function stateLocator(value: unknown, field: string): Locator {
  return identifierLocator(value, field, 'state');
}

/**
 * Resolves `transitions` to references by id. Every target must exist and be of the same type:
 * a workflow never leaves its kind of resource.
 */
async function transitions(value: unknown, type: StateType, load: Load, selfId?: string): Promise<Array<Reference<'state'>> | undefined> {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 500) {
    throw invalidInput("'transitions' must be an array of at most 500 State identifiers.", { field: 'transitions' });
  }
  const references: Array<Reference<'state'>> = [];
  for (const [index, item] of value.entries()) {
    const locator = stateLocator(item, `transitions[${index}]`);
    const target = await load<State>('state', locator);
    if (target === undefined) {
      const what = 'id' in locator ? `id '${locator.id}'` : `key '${locator.key}'`;
      throw invalidInput(`The State with ${what} in 'transitions' does not exist.`, { field: 'transitions' });
    }
    // A State listing itself has the type being set now, not the stored one.
    if (target.id !== selfId && target.type !== type) {
      throw invalidInput(`The State '${target.key}' in 'transitions' is a ${target.type}, not a ${type}.`, { field: 'transitions' });
    }
    if (!references.some((reference) => reference.id === target.id)) references.push({ typeId: 'state', id: target.id });
  }
  return references;
}

/**
 * Another State of the project (not `self`) whose `transitions` list `self` and whose type is not
 * `type`, if any: after `self` became a `type`, it would list a State of another type. One `@?`
 * jsonpath whose equality the GIN jsonb_path_ops index on `doc` answers.
 */
async function listerOfAnotherType(db: Queryable, projectKey: string, self: State, type: StateType) {
  const found = await db.query<{ key: string; type: string }>(
    `SELECT doc ->> 'key' AS key, doc ->> 'type' AS type FROM resources
      WHERE project_key = $1 AND type_id = 'state' AND id <> $2 AND doc @? $3::jsonpath AND doc ->> 'type' <> $4 LIMIT 1`,
    [projectKey, self.id, `$.transitions[*] ? (@.id == ${JSON.stringify(self.id)})`, type],
  );
  return found.rows[0];
}

/** Whether a quote request's workflow `state` is this State (it must stay a QuoteRequestState). */
async function usedByQuoteRequest(db: Queryable, projectKey: string, self: State): Promise<boolean> {
  return (await referencingType(db, projectKey, `$.state ? (@.id == ${JSON.stringify(self.id)})`, ['quote-request'])) !== undefined;
}

/**
 * `/{projectKey}/states`. States have no messages in Herald's catalogue; changes are notified.
 * `documents` answers the changeType check of the States that list this one.
 */
export function stateDefinition(documents: DocumentStore): ResourceDefinition<State> {
  return {
    typeId: 'state',
    path: 'states',
    scopes: { view: ['view_states'], manage: ['manage_states'] },

    async fromDraft(body, ctx) {
      const draft = asDraft(body, 'StateDraft');
      const type = stateType(draft.type);
      const fields: Omit<State, ServerFields> = {
        key: validKey(draft.key),
        type,
        // The reference's StateDraft: `initial` defaults to true.
        initial: booleanField(draft.initial, 'initial', true),
        builtIn: false,
        roles: roles(draft.roles),
      };
      if (draft.name !== undefined && draft.name !== null) fields.name = localizedString(draft.name, 'name');
      if (draft.description !== undefined && draft.description !== null) {
        fields.description = localizedString(draft.description, 'description');
      }
      const targets = await transitions(draft.transitions, type, ctx.load);
      if (targets !== undefined) fields.transitions = targets;
      return fields;
    },

    actions: {
      changeKey(state, action) {
        state.key = validKey(action.key);
      },
      setName(state, action) {
        if (action.name === undefined || action.name === null) delete state.name;
        else state.name = localizedString(action.name, 'name');
      },
      setDescription(state, action) {
        if (action.description === undefined || action.description === null) delete state.description;
        else state.description = localizedString(action.description, 'description');
      },
      /**
       * "A workflow never leaves its kind" holds in both directions: the State's own transitions
       * must be of the new type (re-validated here), and no other State may list it while being of
       * another type; checking only the first let a transition target change its type under the
       * States that list it (400 InvalidInput, as the transition checks answer). The second is a
       * read, not under a lock (optimistic update): a guard against mistakes, as for Types'
       * addFieldDefinition; a setTransitions on another State that read the old type just before
       * this commits is an accepted race.
       */
      async changeType(state, action, { ctx, reader }) {
        state.type = stateType(action.type);
        // Re-validates the existing transitions against the new type.
        const targets = await transitions(state.transitions, state.type, reader.get, state.id);
        if (targets !== undefined) state.transitions = targets;
        const lister = await listerOfAnotherType(documents.db, ctx.projectKey, state, state.type);
        if (lister !== undefined) {
          throw invalidInput(
            `The State '${state.key}' cannot become a ${state.type}: the ${lister.type} '${lister.key}' lists it in its 'transitions'; remove it there first.`,
            { field: 'type', invalidValue: state.type },
          );
        }
        // A quote request's workflow state must be a QuoteRequestState (transitionState checks it).
        if (state.type !== 'QuoteRequestState' && (await usedByQuoteRequest(documents.db, ctx.projectKey, state))) {
          throw invalidInput(`The State '${state.key}' cannot become a ${state.type}: quote requests are in it.`, {
            field: 'type',
            invalidValue: state.type,
          });
        }
      },
      changeInitial(state, action) {
        if (typeof action.initial !== 'boolean') throw invalidInput("'initial' must be a boolean.", { field: 'initial' });
        state.initial = action.initial;
      },
      ...roleActions,
      async setTransitions(state, action, { reader }) {
        // A State may list itself: it exists by now, so the in-transaction read finds it.
        const targets = await transitions(action.transitions, state.type, reader.get, state.id);
        if (targets === undefined) delete state.transitions;
        else state.transitions = targets;
      },
    },
  };
}
