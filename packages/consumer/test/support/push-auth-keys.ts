import { execFile } from 'node:child_process';
import { createPrivateKey, generateKeyPair, sign, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM files made with openssl at test time: a test CA, a loopback TLS server certificate it signed, and an SNS-like signing certificate. */
export interface TestCertificates {
  readonly caPem: string;
  readonly serverKeyPem: string;
  readonly serverCertPem: string;
  readonly signingKey: KeyObject;
  readonly signingCertPem: string;
  /** A second key and self-signed certificate: a forger's. */
  readonly forgerKey: KeyObject;
  readonly forgerCertPem: string;
}

async function openssl(directory: string, ...args: string[]): Promise<void> {
  await run('openssl', args, { cwd: directory });
}

async function selfSigned(directory: string, name: string, subject: string): Promise<void> {
  await openssl(
    directory,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '2',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-subj',
    subject,
  );
}

export async function makeTestCertificates(): Promise<TestCertificates> {
  const directory = await mkdtemp(join(tmpdir(), 'herald-push-auth-'));
  try {
    await openssl(
      directory,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '2',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-subj',
      '/CN=Herald test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    await openssl(directory, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    await writeFile(join(directory, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    await openssl(
      directory,
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-sha256',
      '-days',
      '2',
      '-extfile',
      'server.ext',
      '-out',
      'server.pem',
    );
    await selfSigned(directory, 'signing', '/CN=sns.test-region-1.amazonaws.com');
    await selfSigned(directory, 'forger', '/CN=sns.test-region-1.amazonaws.com');
    const text = (file: string) => readFile(join(directory, file), 'utf8');
    return {
      caPem: await text('ca.pem'),
      serverKeyPem: await text('server.key'),
      serverCertPem: await text('server.pem'),
      signingKey: createPrivateKey(await text('signing.key')),
      signingCertPem: await text('signing.pem'),
      forgerKey: createPrivateKey(await text('forger.key')),
      forgerCertPem: await text('forger.pem'),
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * The SNS string to sign, written from the SNS Developer Guide independently of the consumer's
 * code: Notification signs Message, MessageId, Subject (if present), Timestamp, TopicArn, Type;
 * the confirmations sign Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type.
 */
function snsStringToSign(message: Record<string, string>): string {
  const names =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return names
    .filter((name) => message[name] !== undefined)
    .map((name) => `${name}\n${message[name]}\n`)
    .join('');
}

/** An SNS message signed as SNS signs it (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA). */
export function signSnsMessage(
  message: Record<string, string>,
  key: KeyObject,
  signingCertUrl: string,
  signatureVersion: '1' | '2' = '2',
): Record<string, string> {
  const digest = signatureVersion === '1' ? 'sha1' : 'sha256';
  const signature = sign(digest, Buffer.from(snsStringToSign(message), 'utf8'), key).toString('base64');
  return { ...message, SignatureVersion: signatureVersion, Signature: signature, SigningCertURL: signingCertUrl };
}

/** An RSA key pair for signing JWTs, with its public half as a JWK (RFC 7517) under `kid`. */
export interface JwtSigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicJwk: Record<string, unknown>;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/** Generated off the event loop: a synchronous key generation stalls the loopback servers of the same test process. */
export async function makeJwtSigningKey(kid: string): Promise<JwtSigningKey> {
  const { privateKey, publicKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  return { kid, privateKey, publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

const base64url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

/** A compact JWS (RFC 7515 §7.1) signed RS256 with node:crypto, without the library under test. */
export function signJwt(claims: Record<string, unknown>, key: JwtSigningKey, header: Record<string, unknown> = {}): string {
  const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: key.kid, ...header }))}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${base64url(sign('sha256', Buffer.from(signingInput), key.privateKey))}`;
}
