// The plumbing both spawners share (src-main/host/channel.ts), driven by a stand-in process: an
// EventEmitter with stdout and stderr, whose sends and kills are recorded.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { captureOutput, createWorkerChannel, OutputTail, type ProcessEvents } from '../../../src-main/host/channel.ts';
import type { HostMessage, WorkerMessage } from '../../../src-main/host/protocol.ts';
import type { WorkerExit } from '../../../src-main/host/spawner.ts';

function fakeProcess() {
  const proc = Object.assign(new EventEmitter(), { stdout: new EventEmitter(), stderr: new EventEmitter() });
  const sent: HostMessage[] = [];
  let kills = 0;
  let events!: ProcessEvents;
  const channel = createWorkerChannel((e) => {
    events = e;
    captureOutput(e, proc);
    e.listen(proc, 'message', e.message);
    proc.once('end', (code: number | null, signal: string | null) => e.exit(code, signal));
    return {
      pid: 4242,
      send: (m) => void sent.push(m),
      kill: () => void kills++,
    };
  });
  return { proc, channel, sent, kills: () => kills, events: () => events };
}

const ready: WorkerMessage = { type: 'ready', pid: 4242 };

describe('createWorkerChannel', () => {
  it('delivers worker messages to every listener until it is disposed, and drops anything else', () => {
    const { proc, channel } = fakeProcess();
    const a: WorkerMessage[] = [];
    const b: WorkerMessage[] = [];
    const subA = channel.onMessage((m) => a.push(m));
    channel.onMessage((m) => b.push(m));
    proc.emit('message', ready);
    proc.emit('message', 'not a message');
    proc.emit('message', { pid: 1 });
    subA.dispose();
    proc.emit('message', { type: 'started', runId: 'r1' });
    expect(a).toEqual([ready]);
    expect(b).toEqual([ready, { type: 'started', runId: 'r1' }]);
    expect(channel.pid).toBe(4242);
  });

  it('tells the end once, with the tail of the output; a late listener hears it in a microtask', async () => {
    const { proc, channel, events } = fakeProcess();
    const exits: WorkerExit[] = [];
    channel.onExit((e) => exits.push(e));
    const removed = channel.onExit((e) => exits.push({ ...e, output: 'removed listener' }));
    removed.dispose();
    proc.stdout.emit('data', Buffer.from('solving\n'));
    proc.stderr.emit('data', 'something broke\n');
    proc.emit('end', 3, null);
    events().exit(0, null); // a second report is ignored
    expect(exits).toEqual([{ code: 3, signal: null, output: 'solving\nsomething broke\n' }]);

    const late: WorkerExit[] = [];
    channel.onExit((e) => late.push(e));
    expect(late).toEqual([]);
    await Promise.resolve();
    expect(late).toEqual(exits);
  });

  it('sends only while the process lives, and kills it at most once', () => {
    const { proc, channel, sent, kills } = fakeProcess();
    channel.send({ type: 'init', memoryLimitMb: null });
    channel.kill();
    channel.kill();
    expect(kills()).toBe(1);
    proc.emit('end', null, 'SIGKILL');
    channel.send({ type: 'cancel', runId: 'r1' });
    expect(sent).toEqual([{ type: 'init', memoryLimitMb: null }]);

    const other = fakeProcess();
    other.proc.emit('end', 0, null);
    other.channel.kill();
    expect(other.kills()).toBe(0);
  });

  it('dispose kills the process and detaches its listeners, but the exit listeners still hear the end', () => {
    const { proc, channel, kills } = fakeProcess();
    const messages: WorkerMessage[] = [];
    const exits: WorkerExit[] = [];
    channel.onMessage((m) => messages.push(m));
    channel.onExit((e) => exits.push(e));
    proc.stderr.emit('data', 'last words\n');
    channel.dispose();
    expect(kills()).toBe(1);
    expect([proc.listenerCount('message'), proc.stdout.listenerCount('data'), proc.stderr.listenerCount('data')]).toEqual([0, 0, 0]);
    proc.emit('message', ready);
    proc.stderr.emit('data', 'after dispose\n');
    proc.emit('end', null, 'SIGKILL');
    expect(messages).toEqual([]);
    expect(exits).toEqual([{ code: null, signal: 'SIGKILL', output: 'last words\n' }]);
  });
});

describe('OutputTail', () => {
  it('keeps the last `limit` characters', () => {
    const tail = new OutputTail(10);
    tail.push('0123456789');
    tail.push(Buffer.from('abcdef'));
    expect(tail.toString()).toBe('6789abcdef');
  });
});
