import { X509Certificate } from 'node:crypto';
import type { HttpsGet } from './https-get.js';

/**
 * Hosts SNS signs from and confirms subscriptions on (the SNS Developer Guide: reject any
 * SigningCertURL outside the SNS domain): `sns.<region>.amazonaws.com`, and `.com.cn` in China.
 */
export const SNS_HOST_PATTERN = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** A URL that may be fetched for SNS: https, host matching the pattern, no credentials. */
export function checkSnsUrl(text: string, hostPattern: RegExp, what: string): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${what} is not a URL`;
  }
  if (url.protocol !== 'https:') return `${what} must be https`;
  if (url.username !== '' || url.password !== '') return `${what} must not carry credentials`;
  if (!hostPattern.test(url.hostname)) return `${what} host ${url.hostname} is not an SNS host`;
  return url;
}

/** The certificate could not be had now: the pusher should retry. */
export class CertificateUnavailable extends Error {}

const MAX_CACHED_CERTIFICATES = 64;

/**
 * Signing certificates by URL. SNS rotates them rarely and every message names its own, so each
 * is fetched once; a failed fetch is not kept (the next message tries again). Only URLs that
 * passed `checkSnsUrl` reach it, so the cache cannot be filled by arbitrary hosts.
 */
export class SnsCertificates {
  private readonly cache = new Map<string, Promise<X509Certificate>>();

  constructor(private readonly get: HttpsGet) {}

  certificate(url: URL): Promise<X509Certificate> {
    const cached = this.cache.get(url.href);
    if (cached !== undefined) return cached;
    const loading = this.load(url);
    this.remember(url.href, loading);
    loading.catch(() => this.cache.delete(url.href));
    return loading;
  }

  private remember(key: string, certificate: Promise<X509Certificate>): void {
    if (this.cache.size >= MAX_CACHED_CERTIFICATES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, certificate);
  }

  private async load(url: URL): Promise<X509Certificate> {
    let response;
    try {
      response = await this.get(url);
    } catch (error) {
      throw new CertificateUnavailable(`fetching the signing certificate failed: ${(error as Error).message}`, { cause: error });
    }
    if (response.statusCode !== 200) throw new CertificateUnavailable(`the signing certificate URL answered ${response.statusCode}`);
    return new X509Certificate(response.body);
  }
}
