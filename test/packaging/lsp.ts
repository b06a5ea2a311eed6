// A minimal Language Server Protocol client for the repo's TypeScript. TypeScript 7 (the native
// port) has no `ts.createLanguageService` / `getQuickInfoAtPosition` in JavaScript; its editor
// features are served by `tsc --lsp --stdio`, which is what editors talk to. Hover through it is
// exactly what a user sees.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The native tsc executable the `typescript` package runs (its platform package's). */
export function nativeTsc(fromDir: string): string {
  const require = createRequire(join(fromDir, 'package.json'));
  const typescript = dirname(require.resolve('typescript/package.json'));
  const platform = createRequire(join(typescript, 'package.json')).resolve(
    `@typescript/typescript-${process.platform}-${process.arch}/package.json`,
  );
  return join(dirname(platform), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export interface Position {
  line: number;
  character: number;
}

export class LspClient {
  private readonly child: ChildProcess;
  private buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private stderr = '';

  private constructor(executable: string, root: string) {
    this.child = spawn(executable, ['--lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.child.on('exit', (code) => {
      for (const { reject } of this.pending.values()) {
        reject(new Error(`tsc --lsp exited (${code}): ${this.stderr.slice(-2000)}`));
      }
      this.pending.clear();
    });
  }

  static async start(executable: string, root: string): Promise<LspClient> {
    const client = new LspClient(executable, root);
    const rootUri = pathToFileURL(root).href;
    await client.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'consumer' }],
      capabilities: {
        textDocument: {
          hover: { contentFormat: ['markdown', 'plaintext'] },
          definition: { linkSupport: false },
        },
      },
    });
    client.notify('initialized', {});
    return client;
  }

  open(file: string): { uri: string; text: string } {
    const text = readFileSync(file, 'utf8');
    const uri = pathToFileURL(file).href;
    this.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text },
    });
    return { uri, text };
  }

  /** The hover text (markdown) at a position. */
  async hover(uri: string, position: Position): Promise<string> {
    const result = (await this.request('textDocument/hover', { textDocument: { uri }, position })) as {
      contents?: { value?: string } | string;
    } | null;
    const contents = result?.contents;
    return typeof contents === 'string' ? contents : (contents?.value ?? '');
  }

  async definition(uri: string, position: Position): Promise<{ uri: string; line: number }[]> {
    const result = (await this.request('textDocument/definition', { textDocument: { uri }, position })) as
      | { uri: string; range: { start: { line: number } } }
      | { uri: string; range: { start: { line: number } } }[]
      | null;
    const list = result === null ? [] : Array.isArray(result) ? result : [result];
    return list.map((l) => ({ uri: l.uri, line: l.range.start.line }));
  }

  async stop(): Promise<void> {
    try {
      await this.request('shutdown');
      this.notify('exit');
    } finally {
      this.child.kill();
    }
  }

  private request(method: string, params?: unknown): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  private notify(method: string, params?: unknown): void {
    this.send({ method, ...(params === undefined ? {} : { params }) });
  }

  private send(message: Record<string, unknown>): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    this.child.stdin?.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin?.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(
        /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1],
      );
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()) as {
        id?: number;
        method?: string;
        params?: { items?: unknown[] };
        result?: unknown;
        error?: unknown;
      };
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      if (message.id !== undefined && message.method) {
        // A request from the server (configuration, capability registration): answer plainly.
        const result =
          message.method === 'workspace/configuration' ? (message.params?.items ?? []).map(() => null) : null;
        this.send({ id: message.id, result });
      } else if (message.id !== undefined) {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiting?.reject(new Error(JSON.stringify(message.error)));
        else waiting?.resolve(message.result);
      }
    }
  }
}
