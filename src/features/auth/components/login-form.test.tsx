import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginForm } from './login-form.tsx';

/** The sign-in form on Supabase Auth UI: the product's sign-in behaviours, as a person sees them. */
describe('LoginForm', () => {
  it('shows Auth UI with the Spanish labels and no sign-up, magic-link or password-reset links', async () => {
    render(<LoginForm onSignIn={vi.fn()} />);
    expect(await screen.findByLabelText('Correo electrónico')).toHaveProperty('type', 'email');
    expect(screen.getByLabelText('Contraseña')).toHaveProperty('type', 'password');
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeTruthy();
    expect(screen.queryAllByRole('link')).toEqual([]);
  });

  it('asks for every field before calling sign-in', async () => {
    const onSignIn = vi.fn();
    render(<LoginForm onSignIn={onSignIn} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Todos los campos son obligatorios'));
    await userEvent.type(screen.getByLabelText('Correo electrónico'), 'admin@mediateca.local');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false));
    expect(screen.getByRole('alert').textContent).toBe('Todos los campos son obligatorios');
    expect(onSignIn).not.toHaveBeenCalled();
  });

  it('disables the button while signing in and sends the credentials', async () => {
    let finish: () => void = () => {};
    const onSignIn = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<LoginForm onSignIn={onSignIn} />);
    await userEvent.type(await screen.findByLabelText('Correo electrónico'), 'admin@mediateca.local');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'secreto');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(onSignIn).toHaveBeenCalledWith({ email: 'admin@mediateca.local', password: 'secreto' });
    expect(screen.getByRole('button', { name: 'Entrando…' })).toHaveProperty('disabled', true);
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false));
  });

  it('shows the sign-in error under the form, keeps what was typed and re-enables the button', async () => {
    const onSignIn = vi.fn(async () => {
      throw new Error('El correo electrónico o la contraseña no son correctos.');
    });
    render(<LoginForm onSignIn={onSignIn} />);
    await userEvent.type(await screen.findByLabelText('Correo electrónico'), 'a@b.c');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'mal');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('El correo electrónico o la contraseña no son correctos.'),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false));
    expect(screen.getByLabelText('Correo electrónico')).toHaveProperty('value', 'a@b.c');
  });

  it('shows why a signed-in account was turned away', async () => {
    render(<LoginForm onSignIn={vi.fn()} externalError="Tu usuario no tiene permiso para entrar en la Mediateca." />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Tu usuario no tiene permiso para entrar en la Mediateca.',
    );
  });
});
