import { describe, expect, it } from 'vitest';
import { CommandError, parseCommand } from './command.js';

describe('parseCommand', () => {
  it('splits a string on whitespace', () => {
    expect(parseCommand('  ls   -la /tmp ')).toEqual(['ls', '-la', '/tmp']);
  });

  it('keeps quoted words together, as a shell would (chaostoolkit-kubernetes issue #127)', () => {
    expect(parseCommand(`sh -c 'echo "a b"'`)).toEqual(['sh', '-c', 'echo "a b"']);
    expect(parseCommand(`echo "a b" 'c d'`)).toEqual(['echo', 'a b', 'c d']);
    expect(parseCommand('echo a\\ b')).toEqual(['echo', 'a b']);
    expect(parseCommand(`echo it"'"s`)).toEqual(['echo', "it's"]);
  });

  it('leaves $VARS and globs as written: no shell expands them', () => {
    expect(parseCommand('echo $HOME')).toEqual(['echo', '$HOME']);
    expect(parseCommand('ls *.log')).toEqual(['ls', '*.log']);
  });

  it('uses a list as given', () => {
    expect(parseCommand(['sh', '-c', 'echo out | tr a-z A-Z'])).toEqual([
      'sh',
      '-c',
      'echo out | tr a-z A-Z',
    ]);
    expect(parseCommand(['echo', ''])).toEqual(['echo', '']);
  });

  it.each([
    ['echo a | grep a', '|'],
    ['echo a > /tmp/f', '>'],
    ['true && false', '&&'],
    ['a; b', ';'],
    ['sleep 1 &', '&'],
    ['echo 2>&1', '>&'],
  ])('refuses the shell operator in %j and says to use sh -c', (cmd, op) => {
    expect(() => parseCommand(cmd)).toThrow(CommandError);
    expect(() => parseCommand(cmd)).toThrow(`'${op}' is one`);
    expect(() => parseCommand(cmd)).toThrow('["sh", "-c", "…"]');
  });

  it('refuses a comment, an open quote and an empty command', () => {
    expect(() => parseCommand('echo a # b')).toThrow('comment');
    expect(() => parseCommand(`echo 'a b`)).toThrow("a ' is left open");
    expect(() => parseCommand('echo "a b')).toThrow('a " is left open');
    expect(() => parseCommand('   ')).toThrow('non-empty');
    expect(() => parseCommand([])).toThrow('non-empty');
    expect(() => parseCommand(['', 'x'])).toThrow('non-empty');
  });

  it('does not mistake quoted or escaped quotes for open ones', () => {
    expect(parseCommand(`echo "it's"`)).toEqual(['echo', "it's"]);
    expect(parseCommand(`echo 'say "hi"'`)).toEqual(['echo', 'say "hi"']);
    expect(parseCommand(`echo \\'`)).toEqual(['echo', "'"]);
    expect(parseCommand(`echo "a \\" b"`)).toEqual(['echo', 'a " b']);
  });
});
