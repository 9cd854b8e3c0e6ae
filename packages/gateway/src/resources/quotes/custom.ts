import type { CustomFields } from '@herald/model';
import { customFromDraft } from '../shared/custom-fields.js';
import type { RequestContext } from '../shared/context.js';

/**
 * The reference's rule for `custom` of StagedQuoteDraft, QuoteDraft and OrderFromCartDraft: absent,
 * the source's custom fields are copied; given, they are merged over the source's (when both use
 * the same Type; another Type replaces them).
 */
export async function inheritedCustom(
  draft: unknown,
  source: CustomFields | undefined,
  resourceTypeId: string,
  ctx: Pick<RequestContext, 'load'>,
): Promise<CustomFields | undefined> {
  const own = await customFromDraft(draft, resourceTypeId, ctx);
  if (own === undefined) return source === undefined ? undefined : structuredClone(source);
  if (source === undefined || source.type.id !== own.type.id) return own;
  return { type: own.type, fields: { ...structuredClone(source.fields), ...own.fields } };
}
