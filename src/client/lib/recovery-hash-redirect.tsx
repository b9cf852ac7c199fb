import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from './paths.js';

const RECOVERY_HASH = /access_token|type=recovery|error=access_denied|error_code=otp_expired/;

/** Spec: a recovery link's hash on any page goes to /reset-password, hash kept. */
export function RecoveryHashRedirect() {
  const { pathname, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (pathname !== paths.resetPassword && RECOVERY_HASH.test(hash)) {
      void navigate({ pathname: paths.resetPassword, hash }, { replace: true });
    }
  }, [pathname, hash, navigate]);
  return null;
}
