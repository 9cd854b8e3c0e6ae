/** True for the hosts of AWS's own regional endpoints (commercial and China partitions). */
export function isAwsHost(hostname: string): boolean {
  return hostname.endsWith('.amazonaws.com') || hostname.endsWith('.amazonaws.com.cn');
}
