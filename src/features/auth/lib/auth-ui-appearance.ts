import { ThemeSupa, type I18nVariables } from '@supabase/auth-ui-shared';
import { deployment } from '../../../config/deployment.ts';

/** The deployment's colour mixed with black (as `--brand-dark` does in CSS): white text on it passes AA. */
function darken(hex: string, keep: number): string {
  const channel = (offset: number) =>
    Math.round(parseInt(hex.slice(offset, offset + 2), 16) * keep)
      .toString(16)
      .padStart(2, '0');
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/** Marks Auth UI's own message span, which the sign-in form hides and says in Spanish instead. */
export const AUTH_UI_MESSAGE_CLASS = 'auth-ui-server-message';

/** Supabase's theme in the deployment's brand colour, with text colours that pass WCAG AA on white. */
export const authAppearance = {
  theme: ThemeSupa,
  className: { message: AUTH_UI_MESSAGE_CLASS },
  variables: {
    default: {
      colors: {
        brand: darken(deployment.mainColor, 0.72),
        brandAccent: darken(deployment.mainColor, 0.6),
        brandButtonText: '#ffffff',
        inputText: 'var(--text)',
        inputLabelText: 'var(--text)',
        inputBorder: 'var(--control-border, #76828f)',
        inputBorderFocus: deployment.mainColor,
        inputBorderHover: deployment.mainColor,
        inputPlaceholder: 'var(--muted)',
      },
      fonts: {
        bodyFontFamily: 'inherit',
        buttonFontFamily: 'inherit',
        inputFontFamily: 'inherit',
        labelFontFamily: 'inherit',
      },
      radii: { borderRadiusButton: '6px', inputBorderRadius: '6px' },
    },
  },
};

/** The product's Spanish sign-in words; the other views are never shown. */
export const authLocalization: { variables: I18nVariables } = {
  variables: {
    sign_in: {
      email_label: 'Correo electrónico',
      password_label: 'Contraseña',
      email_input_placeholder: 'nombre@empresa.com',
      password_input_placeholder: 'Tu contraseña',
      button_label: 'Entrar',
      loading_button_label: 'Entrando…',
    },
  },
};
