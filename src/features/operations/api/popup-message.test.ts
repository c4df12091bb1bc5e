import { describe, expect, it } from 'vitest';
import { messageToStored, storedToMessage } from './popup-message.ts';

describe('popup message storage', () => {
  it('stores line breaks as <br> and escapes every other markup', () => {
    const typed = 'Hola <script>alert("x")</script>\nR&D\r\n<img src=x onerror=alert(1)>';
    const stored = messageToStored(typed);
    expect(stored).toBe(
      'Hola &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br>R&amp;D<br>&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(stored.replaceAll('<br>', '')).not.toMatch(/[<>]/);
  });

  it('gives back exactly what was typed', () => {
    const typed = 'Línea 1\n<b>&amp; "dos"</b> \'tres\'';
    expect(storedToMessage(messageToStored(typed))).toBe(typed);
  });

  it('reads the seed message written with <br>', () => {
    expect(storedToMessage('Mantenimiento.<br>Gracias.')).toBe('Mantenimiento.\nGracias.');
  });
});
