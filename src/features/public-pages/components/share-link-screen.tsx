import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { openShareLink } from '../api/open-share-link.ts';
import { publicPageKeys } from '../api/keys.ts';
import type { SharedPage } from '../api/schemas.ts';
import { texts, useLanguage, type Language } from '../lib/language.ts';
import { shareMediaUrls } from '../lib/media-url.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { PublicLayout } from './public-layout.tsx';
import { PublicLoading } from './load-state.tsx';
import { SharedGrid } from './shared-grid.tsx';
import { DownloadAllButton } from './download-all-button.tsx';

/** A grant proves the password for an hour; kept for this tab so a reload does not ask again. */
const grantKey = (token: string) => `mediateca.share-grant.${token}`;
const storedGrant = (token: string) => {
  try {
    return sessionStorage.getItem(grantKey(token));
  } catch {
    return null;
  }
};

/** {site}/s/{token}: the files an admin shared, for anyone holding the link (no sign-in). */
export function ShareLinkScreen() {
  const { token = '' } = useParams();
  const [language, setLanguage] = useLanguage();
  const queryClient = useQueryClient();
  const [grant, setGrant] = useState(() => storedGrant(token));
  const t = texts[language];
  const page = useQuery({
    queryKey: publicPageKeys.shareLink(token, grant),
    queryFn: ({ signal }) => openShareLink(token, { grant }, signal),
    // Each open is a view counted by the server: no refetch on focus or remount.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const enter = useMutation({
    mutationFn: (password: string) => openShareLink(token, { password }),
    onSuccess: (answer) => {
      if (answer.status !== 'ok') return;
      queryClient.setQueryData(publicPageKeys.shareLink(token, answer.grant), answer);
      try {
        if (answer.grant) sessionStorage.setItem(grantKey(token), answer.grant);
      } catch {
        // Without storage the visitor types the password again after a reload.
      }
      setGrant(answer.grant);
    },
  });

  const data = page.data;
  const title = data?.status === 'ok' ? data.name : t.sharedLink;
  return (
    <PublicLayout language={language} onLanguageChange={setLanguage} title={title}>
      {page.isPending ? (
        <PublicLoading language={language} />
      ) : page.isError ? (
        <section className="share-page-message" role="alert">
          <p>{t.loadError}</p>
          <button type="button" className="button button-primary" onClick={() => void page.refetch()}>
            {t.retry}
          </button>
        </section>
      ) : data?.status === 'ok' ? (
        <SharedLinkView page={data} token={token} grant={grant} language={language} />
      ) : data?.status === 'password_required' && enter.data?.status !== 'unavailable' ? (
        <PasswordForm
          language={language}
          pending={enter.isPending}
          answer={enter.data?.status}
          failed={enter.isError}
          onSubmit={(password) => enter.mutate(password)}
        />
      ) : (
        <section className="share-page-message" aria-labelledby="share-unavailable">
          <h1 id="share-unavailable">{t.linkUnavailable}</h1>
          <p>{t.linkUnavailableText}</p>
        </section>
      )}
    </PublicLayout>
  );
}

interface PasswordFormProps {
  language: Language;
  pending: boolean;
  answer: string | undefined;
  failed: boolean;
  onSubmit: (password: string) => void;
}

function PasswordForm({ language, pending, answer, failed, onSubmit }: PasswordFormProps) {
  const t = texts[language];
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '') onSubmit(password);
  };
  const message =
    answer === 'wrong_password'
      ? t.wrongPassword
      : answer === 'too_many_attempts'
        ? t.tooManyAttempts
        : failed
          ? t.loadError
          : null;
  return (
    <form className="share-password" onSubmit={submit} aria-labelledby="share-password-title">
      <h1 id="share-password-title">{t.passwordTitle}</h1>
      <label htmlFor="share-password">{t.password}</label>
      <input
        id="share-password"
        type="password"
        autoComplete="current-password"
        value={password}
        aria-invalid={message ? true : undefined}
        aria-describedby="share-password-message"
        onChange={(event) => setPassword(event.target.value)}
      />
      <p id="share-password-message" className="form-error" role="alert">
        {message}
      </p>
      <button type="submit" className="button button-primary" disabled={pending}>
        {t.enter}
      </button>
    </form>
  );
}

function SharedLinkView({
  page,
  token,
  grant,
  language,
}: {
  page: SharedPage;
  token: string;
  grant: string | null;
  language: Language;
}) {
  const t = texts[language];
  const urls = shareMediaUrls(token, grant);
  return (
    <section className="share-page" aria-labelledby="share-title">
      <p className="share-page-kicker">{t.sharedLink}</p>
      <h1 id="share-title">{page.name}</h1>
      <div className="share-page-bar">
        <p className="share-page-count">
          {t.files(page.files.length)}
          {page.expiresAt && (
            <span className="share-page-expiry">
              {' '}
              · {t.expires}{' '}
              {language === 'es' ? formatDateTime(page.expiresAt) : new Date(page.expiresAt).toLocaleString('en-GB')}
            </span>
          )}
        </p>
        {page.allowDownloads && page.files.length > 0 && (
          <DownloadAllButton page={page} token={token} grant={grant} language={language} />
        )}
      </div>
      {!page.allowDownloads && <p className="share-page-note">{t.noDownloads}</p>}
      {page.files.length === 0 ? (
        <p className="share-page-note">{t.emptyLink}</p>
      ) : (
        <SharedGrid files={page.files} urls={urls} allowDownloads={page.allowDownloads} language={language} />
      )}
    </section>
  );
}
