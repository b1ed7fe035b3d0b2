import { createContext, useContext } from 'react';
import type { AdminSession } from '../../../lib/browser/passkeys-client';

/** The signed-in person, for the tabs that show owners more (the server checks every call anyway). */
export const AdminSessionContext = createContext<AdminSession | null>(null);

export function useAdminSession(): AdminSession | null {
  return useContext(AdminSessionContext);
}

export const isOwner = (session: AdminSession | null) => session?.role === 'owner';
