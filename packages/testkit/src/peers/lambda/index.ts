export { startLambdaPeer, type LambdaContext, type LambdaHandler, type LambdaInvocation, type LambdaPeer, type LambdaPeerOptions } from './peer.js';
