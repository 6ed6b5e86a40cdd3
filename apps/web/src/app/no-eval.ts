import { z } from 'zod';

// The server's Content-Security-Policy forbids eval. zod would probe for it on its first parse, which the
// browser reports as a violation; main.tsx imports this module first, before anything can parse.
z.config({ jitless: true });
