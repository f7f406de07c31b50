import { describe, expect, it } from 'vitest';
import { ApiEventHub } from '../../../src-main/app/events.ts';
import type { EventMessage } from '../../../src-shared/api.ts';

describe('ApiEventHub (src-main/app/events.ts)', () => {
  it('counts attachments: the same sink twice is two, a disposer called twice detaches once', () => {
    const hub = new ApiEventHub();
    const got: EventMessage[] = [];
    const sink = (m: EventMessage) => got.push(m);
    const first = hub.attach(sink);
    const second = hub.attach(sink);
    expect(hub.sinkCount).toBe(2);
    hub.emit('onMenuCommand', { kind: 'showShortcuts' });
    expect(got).toHaveLength(2);
    first();
    first();
    expect(hub.sinkCount).toBe(1);
    hub.emit('onMenuCommand', { kind: 'navigate', view: 'dice' });
    expect(got.slice(2)).toEqual([{ event: 'onMenuCommand', payload: { kind: 'navigate', view: 'dice' } }]);
    second();
    expect(hub.sinkCount).toBe(0);
  });

  it('a sink that detaches another while an event is delivered does not stop that delivery', () => {
    const hub = new ApiEventHub();
    const got: string[] = [];
    let detachB = () => {};
    hub.attach(() => {
      got.push('a');
      detachB();
    });
    detachB = hub.attach(() => got.push('b'));
    hub.emit('onMenuCommand', { kind: 'showShortcuts' });
    hub.emit('onMenuCommand', { kind: 'showShortcuts' });
    expect(got).toEqual(['a', 'b', 'a']);
    expect(hub.sinkCount).toBe(1);
  });
});
