import { useEffect } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { supabase } from '../../lib/supabase.ts';
import { deployment } from '../../config/deployment.ts';
import { isSignOutState, paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth/auth-provider.tsx';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { refusalMessages } from '../../lib/auth/messages.ts';
import { FullScreenSpinner } from '../../components/ui/spinner.tsx';
import { accountPaths } from '../../features/account/paths.ts';
import { onDemand } from '../../lib/on-demand.ts';

// The second step (accounts with an authenticator app) loads only when needed.
const mfaCodeStepModule = onDemand(() => import('../../features/account/components/mfa-code-step.tsx'));

/** Only same-site paths are followed after sign-in, never an absolute URL someone put in the link. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : paths.files;
}

export function LoginRoute() {
  const { state, clearRefusal, signOut } = useAuth();
  const [params] = useSearchParams();
  const location = useLocation();
  const MfaCodeStep = mfaCodeStepModule.useModule(state.status === 'needsCode')?.MfaCodeStep;
  const navigate = useNavigate();
  const target = safeRedirect(params.get('redirect'));
  const signingOut = state.status === 'signedIn' && isSignOutState(location.state);

  useEffect(() => {
    if (!signingOut) return;
    // Drop the intent once done, or the next sign-in on this page would be undone too.
    void signOut().then(() => navigate(paths.login, { replace: true }));
  }, [signingOut, signOut, navigate]);

  if (signingOut) return <FullScreenSpinner />;
  if (state.status === 'signedIn') return <Navigate to={target} replace />;

  return (
    <main className="login-page" id="main">
      {state.status === 'loading' && <FullScreenSpinner />}
      <section className="login-card" aria-labelledby="login-title">
        <img src={deployment.logo} alt="" width={56} height={56} />
        <h1 id="login-title">{deployment.name}</h1>
        {state.status === 'needsCode' ? (
          <>
            <h2 className="login-subtitle">Código de verificación</h2>
            {MfaCodeStep ? (
              <MfaCodeStep factorId={state.factorId} onCancel={() => void signOut()} />
            ) : (
              <FullScreenSpinner />
            )}
          </>
        ) : (
          <>
            <p className="login-subtitle">Inicia sesión con tu cuenta del equipo</p>
            <LoginForm
              supabaseClient={supabase}
              onAttempt={clearRefusal}
              externalError={state.status === 'signedOut' && state.refusal ? refusalMessages[state.refusal] : null}
            />
            <p className="login-links">
              <Link to={accountPaths.forgotPassword}>¿Has olvidado tu contraseña?</Link>
            </p>
          </>
        )}
      </section>
    </main>
  );
}
