import { useEffect, type ReactNode } from 'react';
import { deployment } from '../../../config/deployment.ts';
import { texts, type Language } from '../lib/texts.ts';
import '../share-page.css';

interface SharePageLayoutProps {
  language: Language;
  onLanguageChange: (language: Language) => void;
  /** The browser tab's title. */
  title: string;
  children: ReactNode;
}

/** The frame of a shared link's page: brand, language switch, content. No staff navigation. */
export function SharePageLayout({ language, onLanguageChange, title, children }: SharePageLayoutProps) {
  useEffect(() => {
    document.title = `${title} · ${deployment.name}`;
  }, [title]);
  return (
    <div className="share-shell" lang={language}>
      <header className="share-header">
        <span className="share-brand">
          <img src={deployment.logo} alt="" width={28} height={28} />
          {deployment.name}
        </span>
        <div className="share-language" role="group" aria-label={texts[language].languageLabel}>
          {(['es', 'en'] as const).map((option) => (
            <button
              key={option}
              type="button"
              lang={option}
              className="share-language-option"
              aria-pressed={language === option}
              onClick={() => onLanguageChange(option)}
            >
              {option === 'es' ? 'Español' : 'English'}
            </button>
          ))}
        </div>
      </header>
      <main id="main" className="share-main">
        {children}
      </main>
    </div>
  );
}
