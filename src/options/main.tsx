import '../shared/zod.ts';
import { render } from 'preact';
import { Settings } from './Settings.tsx';
import { PortClient } from '../port/portClient.ts';

render(<Settings client={new PortClient()} />, document.getElementById('app')!);
