import type { SessionUser } from '../../shared/schemas/auth.js';

export function SignedInLine({ user }: { user: SessionUser }) {
  return (
    <p className="text-stone-700">
      Signed in as <span className="font-medium text-stone-900">{user.fullName}</span> ({user.email})
    </p>
  );
}
