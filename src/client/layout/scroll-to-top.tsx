import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** A new page starts at the top; filter changes within a page (query string only) keep the scroll position. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
