import { useEffect, type ReactNode } from 'react';
import { deployment } from '../../../config/deployment.ts';
import { texts, type Language } from '../lib/language.ts';
import '../public-pages.css';

interface PublicLayoutProps {
  language: Language;
  onLanguageChange: (language: Language) => void;
  /** The browser tab's title. */
  title: string;
  children: ReactNode;
}

/** The frame of every visitor page (/file, /collection, /s): brand, language switch, content. No staff navigation. */
export function PublicLayout({ language, onLanguageChange, title, children }: PublicLayoutProps) {
  useEffect(() => {
    document.title = `${title} · ${deployment.name}`;
  }, [title]);
  return (
    <div className="public-shell" lang={language}>
      <header className="public-header">
        <span className="public-brand">
          <img src={deployment.logo} alt="" width={28} height={28} />
          {deployment.name}
        </span>
        <div className="public-language" role="group" aria-label={texts[language].languageLabel}>
          {(['es', 'en'] as const).map((option) => (
            <button
              key={option}
              type="button"
              lang={option}
              className="public-language-option"
              aria-pressed={language === option}
              onClick={() => onLanguageChange(option)}
            >
              {option === 'es' ? 'Español' : 'English'}
            </button>
          ))}
        </div>
      </header>
      <main id="main" className="public-main">
        {children}
      </main>
    </div>
  );
}
