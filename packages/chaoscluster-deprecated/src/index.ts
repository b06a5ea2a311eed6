// Filled by a later issue; see README.md.
export {};
