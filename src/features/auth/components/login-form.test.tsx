import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginForm } from './login-form.tsx';

describe('LoginForm', () => {
  it('asks for every field before calling sign-in', async () => {
    const onSignIn = vi.fn();
    render(<LoginForm onSignIn={onSignIn} />);
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Todos los campos son obligatorios');
    await userEvent.type(screen.getByLabelText('Correo electrónico'), 'admin@mediateca.local');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByRole('alert').textContent).toBe('Todos los campos son obligatorios');
    expect(onSignIn).not.toHaveBeenCalled();
  });

  it('disables the button while signing in and sends the credentials', async () => {
    let finish: () => void = () => {};
    const onSignIn = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<LoginForm onSignIn={onSignIn} />);
    await userEvent.type(screen.getByLabelText('Correo electrónico'), 'admin@mediateca.local');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'secreto');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(onSignIn).toHaveBeenCalledWith({ email: 'admin@mediateca.local', password: 'secreto' });
    expect(screen.getByRole('button', { name: 'Entrando…' })).toHaveProperty('disabled', true);
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false));
  });

  it('shows the sign-in error under the form and re-enables the button', async () => {
    const onSignIn = vi.fn(async () => {
      throw new Error('El correo electrónico o la contraseña no son correctos.');
    });
    render(<LoginForm onSignIn={onSignIn} />);
    await userEvent.type(screen.getByLabelText('Correo electrónico'), 'a@b.c');
    await userEvent.type(screen.getByLabelText('Contraseña'), 'mal');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('El correo electrónico o la contraseña no son correctos.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Entrar' })).toHaveProperty('disabled', false);
  });

  it('shows why a signed-in account was turned away', () => {
    render(<LoginForm onSignIn={vi.fn()} externalError="Tu usuario no tiene permiso para entrar en la Mediateca." />);
    expect(screen.getByRole('alert').textContent).toBe('Tu usuario no tiene permiso para entrar en la Mediateca.');
  });
});
