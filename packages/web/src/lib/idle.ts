/**
 * Runs `callback` when the browser is next idle, or after `timeoutMs` at the latest (at once
 * where the browser cannot tell, as jsdom); returns a function that cancels it.
 */
export function whenIdle(callback: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}

/**
 * Runs `callback` in a task of its own once the browser has drawn its next frame (a frame's
 * animation callbacks run just before it is drawn; a timer set from there fires after); returns
 * a function that cancels it. Work started this way never holds up what the current event
 * shows. Without animation frames (jsdom) it runs after a timer.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(callback, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
