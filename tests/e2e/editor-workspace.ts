/**
 * A throwaway copy of the project for the content-editor e2e: `npm run edit` (scripts/edit.mjs:
 * the dev server and decap-server) runs in it, so the editor's saves change the copy's files and
 * never the working tree or what the rest of the suite serves. Its node_modules is a folder of
 * links to the project's packages, so that Vite's and Astro's caches stay in the copy too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const copied = ['src', 'content', 'public', 'netlify', 'scripts', 'astro.config.mjs', 'tsconfig.json', 'package.json', '.gitignore'];
const caches = new Set(['.astro', '.vite', '.vite-temp', '.cache']);
/** Every source the content comes from is the committed files. */
const buildEnv = { ASTRO_TELEMETRY_DISABLED: '1', BLOG_SOURCE: 'local', FORMS_SOURCE: 'local', HUBSPOT_ACCESS_TOKEN: '', NO_COLOR: '1' };

export interface EditorWorkspace {
  /** The editor's URL, e.g. http://localhost:9150/content-editor. */
  url: string;
  read(path: string): string;
  write(path: string, contents: string): void;
  exists(path: string): boolean;
  /** The names of the files in a folder. */
  list(folder: string): string[];
  /** `astro build` of the copy into its own folder; the built page's HTML by route. */
  build(): Promise<{ ok: boolean; output: string; page(route: string): string }>;
  stop(): Promise<void>;
}

function linkPackages(target: string): void {
  mkdirSync(target);
  const modules = join(root, 'node_modules');
  for (const entry of readdirSync(modules)) {
    if (!caches.has(entry)) symlinkSync(join(modules, entry), join(target, entry));
  }
}

function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startEditorWorkspace(ports: { dev: number; backend: number }): Promise<EditorWorkspace> {
  const workspace = mkdtempSync(join(tmpdir(), 'content-editor-e2e-'));
  for (const entry of copied) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(workspace, entry), { recursive: true });
  }
  linkPackages(join(workspace, 'node_modules'));

  const editor = spawn(process.execPath, ['scripts/edit.mjs'], {
    cwd: workspace,
    env: { ...process.env, ...buildEnv, PORT: String(ports.dev), DECAP_SERVER_PORT: String(ports.backend) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  editor.stderr.on('data', (chunk) => (log += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run edit did not start within 90 s:\n${log}`)), 90_000);
    editor.stdout.on('data', (chunk) => {
      log += chunk;
      const match = log.match(/Content editor: (\S+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    editor.on('exit', (code) => reject(new Error(`npm run edit exited (${code}):\n${log}`)));
  });

  return {
    url,
    read: (path) => readFileSync(join(workspace, path), 'utf8'),
    write: (path, contents) => {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), contents);
    },
    exists: (path) => existsSync(join(workspace, path)),
    list: (folder) => readdirSync(join(workspace, folder)),
    async build() {
      // The copy's own dist/ (git-ignored, as in the project): its prerendered chunks resolve packages from the copy.
      const outDir = join(workspace, 'dist');
      const result = await run(process.execPath, [join(workspace, 'node_modules', '.bin', 'astro'), 'build', '--outDir', outDir], workspace, buildEnv);
      return {
        ok: result.code === 0,
        output: result.output,
        page: (route) => readFileSync(join(outDir, route === '/' ? 'index.html' : `${route.replace(/^\//, '')}.html`), 'utf8'),
      };
    },
    async stop() {
      await stopProcess(editor);
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
