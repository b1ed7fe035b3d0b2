#!/usr/bin/env node
/** `npm run db:reset`: empties the local database (.netlify/db); the next `npm start` or `npm run dev` migrates a new one. */
import { databaseDirectory, resetLocalDatabase } from './local-database.mjs';

resetLocalDatabase();
console.log(`Emptied the local database (${databaseDirectory}).`);
