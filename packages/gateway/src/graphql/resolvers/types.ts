import type { GraphQLContext } from '../context.js';

/** A field resolver with Herald's context; `TArgs` are the field's arguments as graphql-js coerced them. */
export type Resolver<TParent, TArgs, TResult> = (parent: TParent, args: TArgs, context: GraphQLContext) => TResult | Promise<TResult>;

/** Arguments that name one resource by `id` or `key` (§4.3). */
export interface IdOrKey {
  id?: string | null;
  key?: string | null;
}

/** §4.3 `businessUnits` arguments. */
export interface QueryArgs {
  where?: string | null;
  sort?: readonly string[] | null;
  limit?: number | null;
  offset?: number | null;
}
