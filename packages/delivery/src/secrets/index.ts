export { AesGcmSecretBox, looksSealed, plainSecretBox, secretBoxFor, type SecretBox } from './secret-box.js';
export { sealDestination, openDestination } from './destination-secrets.js';
