import type { SecretBox } from '@herald/delivery';
import { openDestination } from '../destination.js';
import { DEFAULT_TIMEOUT_MS, type Extension, type ExtensionAction } from '../extension.js';
import type { ExtensionOutcome } from './answer.js';
import { callOverHttp } from './http-call.js';
import { LambdaInvoker, type LambdaOptions } from './lambda-call.js';

export type { ExtensionOutcome } from './answer.js';
export type { LambdaOptions } from './lambda-call.js';

/** The reference's ExtensionInput: the action and the resource as an expanded reference. */
export interface ExtensionInput {
  action: ExtensionAction;
  resource: { typeId: string; id: string; obj: unknown };
  oldResource?: { typeId: string; id: string; obj: unknown };
}

/** Calls an Extension's destination with an ExtensionInput, within its `timeoutInMs`. */
export class ExtensionCaller {
  private readonly lambda: LambdaInvoker;

  constructor(
    private readonly secrets: SecretBox,
    lambda: LambdaOptions = {},
  ) {
    this.lambda = new LambdaInvoker(lambda);
  }

  async call(extension: Extension, input: ExtensionInput, correlationId: string): Promise<ExtensionOutcome> {
    const destination = openDestination(extension.destination, this.secrets);
    const body = JSON.stringify(input);
    const timeoutMs = extension.timeoutInMs ?? DEFAULT_TIMEOUT_MS;
    switch (destination.type) {
      case 'HTTP':
        return callOverHttp(extension, {
          url: destination.url,
          ...(destination.authentication === undefined ? {} : { authentication: destination.authentication }),
          body,
          correlationId,
          timeoutMs,
        });
      // The reference's GoogleCloudFunction authenticates the platform's own service account through
      // Google IAM; Herald has no such identity, so the function must admit Herald's calls (for
      // example by network ingress rules). The call itself is the HTTP one.
      case 'GoogleCloudFunction':
        return callOverHttp(extension, { url: destination.url, body, correlationId, timeoutMs });
      case 'AWSLambda':
        return this.lambda.invoke(extension, {
          arn: destination.arn,
          accessKey: destination.accessKey,
          accessSecret: destination.accessSecret,
          body,
          correlationId,
          timeoutMs,
        });
    }
  }

  close(): void {
    this.lambda.close();
  }
}
