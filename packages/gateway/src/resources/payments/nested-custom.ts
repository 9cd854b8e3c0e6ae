import type { BaseResource, CustomFields, MessagePayload } from '@herald/model';
import { customFieldActions } from '../shared/custom-fields.js';
import type { ActionScope, UpdateAction } from '../shared/update-actions.js';

/** A part of a payment with its own custom fields (a Transaction, the PaymentMethodInfo). */
export interface CustomHolder {
  custom?: CustomFields;
}

type Customizable = BaseResource & CustomHolder;

/**
 * The shared setCustomType/setCustomField rules applied to a part of the payment instead of the
 * document: the shared handlers read and write only `custom` of what they are given, so the part is
 * handed to them in the document's place. `resourceTypeId` is the reference's ResourceTypeId of the
 * part (`transaction`, `payment-method-info`), which also names their messages
 * (`PaymentMethodInfoCustomTypeSet`, …); `messages: false` for parts the reference has none for.
 */
export function nestedCustomActions(resourceTypeId: string, messages: boolean) {
  const handlers = customFieldActions<Customizable>(resourceTypeId, { messages });
  const run = async (name: 'setCustomType' | 'setCustomField', part: CustomHolder, action: UpdateAction, scope: ActionScope): Promise<MessagePayload[]> => {
    const handler = handlers[name];
    return (await handler?.(part as Customizable, action, scope)) ?? [];
  };
  return {
    setCustomType: (part: CustomHolder, action: UpdateAction, scope: ActionScope) => run('setCustomType', part, action, scope),
    setCustomField: (part: CustomHolder, action: UpdateAction, scope: ActionScope) => run('setCustomField', part, action, scope),
  };
}
