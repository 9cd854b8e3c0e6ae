/** `arn:<partition>:sns:<region>:<account>:<topic>` → region; undefined when not an SNS topic ARN. */
export function regionOfTopicArn(topicArn: string): string | undefined {
  const parts = topicArn.split(':');
  if (parts.length !== 6 || parts[0] !== 'arn' || parts[2] !== 'sns' || parts[3] === '' || parts[5] === '') {
    return undefined;
  }
  return parts[3];
}
