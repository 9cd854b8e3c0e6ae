import { duplicateField } from '@herald/model';
import type { Queryable } from '@herald/store';
import { PAYMENT_TYPE_ID, type Payment } from './payment.js';

/**
 * PaymentDraft.interfaceId: "The combination of `interfaceId` and the `paymentInterface` field on
 * PaymentMethodInfo must be unique" (400 DuplicateField). Checked only when both are set. One `@>`
 * containment test, which the GIN jsonb_path_ops index on `doc` answers.
 *
 * A read before the write, not a constraint (no unique index on document fields): two writes of the
 * same pair committing at the same moment can both pass, an accepted race as for customer groups'
 * unique name.
 */
export async function assertInterfaceIdFree(
  db: Queryable,
  projectKey: string,
  payment: Pick<Payment, 'interfaceId' | 'paymentMethodInfo'> & { id?: string },
): Promise<void> {
  const { interfaceId } = payment;
  const paymentInterface = payment.paymentMethodInfo.paymentInterface;
  if (interfaceId === undefined || paymentInterface === undefined) return;
  const found = await db.query<{ id: string }>('SELECT id FROM resources WHERE project_key = $1 AND type_id = $2 AND doc @> $3::jsonb AND id <> $4 LIMIT 1', [
    projectKey,
    PAYMENT_TYPE_ID,
    JSON.stringify({ interfaceId, paymentMethodInfo: { paymentInterface } }),
    payment.id ?? '',
  ]);
  if (found.rows.length > 0) throw duplicateField('interfaceId', interfaceId);
}
