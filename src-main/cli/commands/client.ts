import path from 'node:path';
import { parseCommandArgs, writeLine, type Command } from '../command.ts';
import { clientHelp } from './client.help.ts';
import { PROJECT_ROOT } from '../../server/renderer-dir.ts';

/** The Python client's folder in this package (a checkout or an installed package alike). */
export const clientFolder = (root = PROJECT_ROOT) => path.join(root, 'clients', 'python');

export const clientCommand: Command = {
  name: 'client',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, clientHelp);
    const folder = clientFolder();
    if (values.path) {
      writeLine(io.stdout, folder);
      return 0;
    }
    for (const line of [
      `The Python client: ${path.join(folder, 'saikoro_client.py')}`,
      `  install it:  pip install "$(saikoro client --path)"   (nothing to fetch: --no-index works offline)`,
      `  or copy saikoro_client.py next to your program`,
      `Example solvers: ${path.join(PROJECT_ROOT, 'examples', 'solvers')}`,
      `  local_search.py (hill climbers, no dependencies), deap_ga.py (DEAP), pymoo_nsga2.py (pymoo), random_search.mjs (Node, no client)`,
      `The client and the examples: saikoro help clients; the protocol: saikoro help protocol`,
    ])
      writeLine(io.stdout, line);
    return 0;
  },
};
