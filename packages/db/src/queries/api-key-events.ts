import { API_KEY_REVOKED_CHANNEL } from './api-keys';
import { listenForNotifications, type NotificationListener } from './notification-listener';

export type KeyRevocationListener = NotificationListener;

export interface KeyRevocationHandlers {
  /** A key was revoked (its key id). */
  revoked(keyId: string): void;
  /** The listener (re)connected: notifications may have been missed meanwhile, forget everything. */
  reset(): void;
}

/** Listens for API key revocations (revokeApiKey's NOTIFY), reconnecting after a restart or failover. */
export function listenForKeyRevocations(url: string, handlers: KeyRevocationHandlers): KeyRevocationListener {
  return listenForNotifications(url, 'mdq-api-keys', [API_KEY_REVOKED_CHANNEL], {
    notified: (_channel, keyId) => {
      if (keyId) handlers.revoked(keyId);
    },
    reset: handlers.reset,
  });
}
