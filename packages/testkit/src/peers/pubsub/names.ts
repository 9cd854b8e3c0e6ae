/**
 * Pub/Sub resource names: `projects/{project}/topics/{topic}` and
 * `projects/{project}/subscriptions/{subscription}`. Test helpers accept the short name too.
 */

const TOPIC_NAME = /^projects\/[^/]+\/topics\/[^/]+$/;
const SUBSCRIPTION_NAME = /^projects\/[^/]+\/subscriptions\/[^/]+$/;

export function topicPath(projectId: string, name: string): string {
  return name.startsWith('projects/') ? name : `projects/${projectId}/topics/${name}`;
}

export function subscriptionPath(projectId: string, name: string): string {
  return name.startsWith('projects/') ? name : `projects/${projectId}/subscriptions/${name}`;
}

export const isTopicName = (name: string): boolean => TOPIC_NAME.test(name);
export const isSubscriptionName = (name: string): boolean => SUBSCRIPTION_NAME.test(name);
