import { duplicateField } from '@herald/model';
import { customFieldActions } from '../custom-fields.js';
import type { ActionHandlers } from '../update-actions.js';
import { optionalKey, optionalString } from '../validation.js';
import type { CustomerCredentials } from './credentials.js';
import { storeKeyOf, type Customer } from './customer.js';
import { validEmail } from './draft.js';

/** Customer update actions and the messages they cause (MESSAGE_TYPES.customer). */
export function customerActions(credentials: CustomerCredentials): ActionHandlers<Customer> {
  return {
    async changeEmail(customer, action, { ctx, reader }) {
      const email = validEmail(action.email);
      if (email === customer.email) return [];
      const storeKey = storeKeyOf(customer) || undefined;
      if (await credentials.emailTaken(reader.tx, ctx.projectKey, email, storeKey, customer.id)) {
        throw duplicateField('email', email);
      }
      customer.email = email;
      customer.isEmailVerified = false;
      return [{ type: 'CustomerEmailChanged', email }];
    },
    // An unchanged name (or removing an absent one) emits no message, so the version does not
    // move and no ResourceUpdated goes out (DocumentStore.nextVersion), as changeEmail already does.
    setFirstName(customer, action) {
      const firstName = optionalString(action.firstName, 'firstName', 256);
      if (firstName === customer.firstName) return [];
      if (firstName === undefined) delete customer.firstName;
      else customer.firstName = firstName;
      return [{ type: 'CustomerFirstNameSet', ...(firstName === undefined ? {} : { firstName }) }];
    },
    setLastName(customer, action) {
      const lastName = optionalString(action.lastName, 'lastName', 256);
      if (lastName === customer.lastName) return [];
      if (lastName === undefined) delete customer.lastName;
      else customer.lastName = lastName;
      return [{ type: 'CustomerLastNameSet', ...(lastName === undefined ? {} : { lastName }) }];
    },
    setKey(customer, action) {
      const key = optionalKey(action.key);
      if (key === undefined) delete customer.key;
      else customer.key = key;
      return [];
    },
    ...customFieldActions<Customer>('customer'),
  };
}
