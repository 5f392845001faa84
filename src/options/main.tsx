import '../shared/zod.ts';
import { render } from 'preact';
import { Settings } from './Settings.tsx';
import { PortClient } from '../shared/portClient.ts';

render(<Settings client={new PortClient()} />, document.getElementById('app')!);
