// postject ships no type declarations: the one function chaoskit calls, as its README documents it.
declare module 'postject' {
  export function inject(
    file: string,
    resourceName: string,
    resourceData: Buffer,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
