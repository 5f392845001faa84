import '../shared/zod.ts';
import { render } from 'preact';
import { App } from './App.tsx';
import { PortClient } from '../port/portClient.ts';

const client = new PortClient();
// Exposed for the e2e suite, which drives the worker through the same port the UI uses.
Object.assign(globalThis, { ottoPanel: client });
render(<App client={client} />, document.getElementById('app')!);
