// The runner image's user, which deploy's pods run as.

/** The pod's user: not root, and no user of the image's (it has none). */
export const RUNNER_UID = 65532;
