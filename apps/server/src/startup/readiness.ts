/**
 * Whether this process should be sent new work: not before it is up (migrations run, queue
 * started), and not once it drains on SIGTERM, so a load balancer takes it out of rotation.
 */
export interface Readiness {
  readonly state: 'starting' | 'ready' | 'draining';
  markReady(): void;
  markDraining(): void;
}

export function createReadiness(): Readiness {
  let state: Readiness['state'] = 'starting';
  return {
    get state() {
      return state;
    },
    markReady() {
      if (state === 'starting') state = 'ready';
    },
    markDraining() {
      state = 'draining';
    },
  };
}
