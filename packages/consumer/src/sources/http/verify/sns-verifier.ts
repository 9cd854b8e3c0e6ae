import { verify as verifySignature } from 'node:crypto';
import type { Clock } from '../../../clock.js';
import { headerValue } from '../http-reply.js';
import { httpsGetter, type HttpsGet } from './https-get.js';
import { absent, rejected, unavailable, type PushRequest, type PushVerdict, type PushVerifier } from './push-verifier.js';
import { CertificateUnavailable, checkSnsUrl, SNS_HOST_PATTERN, SnsCertificates } from './sns-certificates.js';
import { readSignedMessage, stringToSign, type SnsSignedMessage } from './sns-message.js';
import { jsonObjectOf } from './request-body.js';

export interface SnsVerificationOptions {
  /**
   * Topics whose messages are accepted (exact ARNs). Required: SNS signs the messages of every
   * AWS account's topics alike, so a valid signature alone proves only that SNS sent it.
   */
  readonly topicArns: readonly string[];
  /** Hosts SigningCertURL and SubscribeURL may name. Default SNS_HOST_PATTERN; widen only in tests. */
  readonly hostPattern?: RegExp;
  /** How certificates are fetched and SubscribeURL visited. Default `httpsGetter()` (node:https, Node's CAs). */
  readonly httpsGet?: HttpsGet;
  /** Visit SubscribeURL of a verified SubscriptionConfirmation. Default true; false leaves it to an operator. */
  readonly confirmSubscriptions?: boolean;
}

const SNS_MESSAGE_TYPE_HEADER = 'x-amz-sns-message-type';

function answered(message: string): PushVerdict {
  return { outcome: 'answered', reply: { statusCode: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: message } };
}

/**
 * SNS over HTTP/S: every message carries an RSA signature over its fields, made with the
 * certificate at SigningCertURL. Claims requests with `x-amz-sns-message-type` (SNS sends it on
 * every request); a message with raw delivery carries no signature and is answered 401.
 */
export class SnsVerifier implements PushVerifier {
  private readonly topicArns: ReadonlySet<string>;
  private readonly hostPattern: RegExp;
  private readonly httpsGet: HttpsGet;
  private readonly certificates: SnsCertificates;
  private readonly confirmSubscriptions: boolean;

  constructor(
    options: SnsVerificationOptions,
    private readonly clock: Clock,
  ) {
    if (options.topicArns.length === 0) throw new TypeError('SNS verification needs at least one topic ARN');
    this.topicArns = new Set(options.topicArns);
    this.hostPattern = options.hostPattern ?? SNS_HOST_PATTERN;
    this.httpsGet = options.httpsGet ?? httpsGetter();
    this.certificates = new SnsCertificates(this.httpsGet);
    this.confirmSubscriptions = options.confirmSubscriptions ?? true;
  }

  async verify(request: PushRequest): Promise<PushVerdict> {
    const headerType = headerValue(request.headers, SNS_MESSAGE_TYPE_HEADER);
    if (headerType === undefined) return absent;
    const document = jsonObjectOf(request.body);
    if (document === undefined) return rejected('the SNS message is not a JSON object');
    const message = readSignedMessage(document);
    if (message === undefined) return absent;
    if (typeof message === 'string') return rejected(message);
    if (message.type !== headerType) return rejected(`${SNS_MESSAGE_TYPE_HEADER} ${headerType} differs from the message Type ${message.type}`);
    const topicArn = message.fields.TopicArn ?? '';
    if (!this.topicArns.has(topicArn)) return rejected(`topic ${topicArn} is not accepted here`);
    const signatureProblem = await this.signatureProblem(message);
    if (signatureProblem !== undefined) return signatureProblem;
    return this.afterVerification(message);
  }

  /** A verdict when the signature does not prove the message came from SNS; undefined when it does. */
  private async signatureProblem(message: SnsSignedMessage): Promise<PushVerdict | undefined> {
    const url = checkSnsUrl(message.signingCertUrl, this.hostPattern, 'SigningCertURL');
    if (typeof url === 'string') return rejected(url);
    let certificate;
    try {
      certificate = await this.certificates.certificate(url);
    } catch (error) {
      if (error instanceof CertificateUnavailable) return unavailable(error.message);
      return rejected('SigningCertURL did not serve an X.509 certificate');
    }
    const now = new Date(this.clock.now());
    if (now < new Date(certificate.validFrom) || now > new Date(certificate.validTo)) return rejected('the signing certificate is not valid now');
    const valid = verifySignature(message.digest, Buffer.from(stringToSign(message), 'utf8'), certificate.publicKey, message.signature);
    return valid ? undefined : rejected('the SNS signature does not match the message');
  }

  private async afterVerification(message: SnsSignedMessage): Promise<PushVerdict> {
    switch (message.type) {
      case 'Notification':
        // Only the signed fields go on: anything added beside them (a top-level payload, ce-*
        // headers) would otherwise be parsed as if SNS had vouched for it.
        return { outcome: 'accepted', delivery: { headers: { 'content-type': 'application/json' }, body: { ...message.fields } } };
      case 'UnsubscribeConfirmation':
        // Nothing to do: visiting its SubscribeURL would subscribe the endpoint again.
        return answered('unsubscribe confirmation received');
      case 'SubscriptionConfirmation':
        return this.confirm(message.fields.SubscribeURL ?? '');
    }
  }

  private async confirm(subscribeUrl: string): Promise<PushVerdict> {
    if (!this.confirmSubscriptions) return answered('subscription confirmation received; not confirmed (confirmSubscriptions is false)');
    const url = checkSnsUrl(subscribeUrl, this.hostPattern, 'SubscribeURL');
    if (typeof url === 'string') return rejected(url);
    try {
      const response = await this.httpsGet(url);
      if (response.statusCode !== 200) return unavailable(`SubscribeURL answered ${response.statusCode}`);
    } catch (error) {
      return unavailable(`visiting SubscribeURL failed: ${(error as Error).message}`);
    }
    return answered('subscription confirmed');
  }
}
