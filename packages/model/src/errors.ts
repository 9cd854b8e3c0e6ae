/** One entry of `errors` in an error response; extra fields depend on the code. */
export interface ErrorObject {
  code: string;
  message: string;
  [field: string]: unknown;
}

/** The error body every endpoint answers with (OAuth errors add `error` and `error_description`). */
export interface ErrorResponse {
  statusCode: number;
  message: string;
  errors: ErrorObject[];
  error?: string;
  error_description?: string;
}
