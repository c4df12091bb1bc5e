import { describe, expect, it, vi } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginForm } from './login-form.tsx';

/**
 * The sign-in form on Supabase Auth UI: the product's sign-in behaviours, as a person sees them. Auth UI signs in with
 * a real client; here its server is an address nobody listens on, so every attempt fails to connect. The
 * answers of a real Auth server (wrong password, the button held while signing in) are in the e2e tests
 * (tests/e2e/shell.test.ts, tests/e2e/login-auth-ui.test.ts).
 */
const unreachable = createClient('http://127.0.0.1:1', 'unit-test-anon-key-not-used-for-requests', {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
});

describe('LoginForm', () => {
  it('shows Auth UI with the Spanish labels and no sign-up, magic-link or password-reset links', async () => {
    render(<LoginForm supabaseClient={unreachable} />);
    expect(await screen.findByLabelText('Correo electrónico')).toHaveProperty('type', 'email');
    expect(screen.getByLabelText('Contraseña')).toHaveProperty('type', 'password');
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeTruthy();
    expect(screen.queryAllByRole('link')).toEqual([]);
  });

  it('asks for every field before sending anything', async () => {
    const onAttempt = vi.fn();
    render(<LoginForm supabaseClient={unreachable} onAttempt={onAttempt} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Todos los campos son obligatorios'));
    await userEvent.type(screen.getByLabelText('Correo electrónico'), 'admin@mediateca.local');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByRole('alert').textContent).toBe('Todos los campos son obligatorios');
    expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false);
    expect(onAttempt).not.toHaveBeenCalled();
  });

  it('says in Spanish why the sign-in failed, keeps what was typed and re-enables the button', async () => {
    const onAttempt = vi.fn();
    render(<LoginForm supabaseClient={unreachable} onAttempt={onAttempt} />);
    await userEvent.type(await screen.findByLabelText('Correo electrónico'), 'a@b.c');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'secreto');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'No se pudo conectar con el servidor. Comprueba tu conexión e inténtalo de nuevo.',
      ),
    );
    expect(onAttempt).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false));
    expect(screen.getByLabelText('Correo electrónico')).toHaveProperty('value', 'a@b.c');
  });

  it('shows why a signed-in account was turned away', async () => {
    render(
      <LoginForm
        supabaseClient={unreachable}
        externalError="Tu usuario no tiene permiso para entrar en la Mediateca."
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Tu usuario no tiene permiso para entrar en la Mediateca.',
    );
  });
});
